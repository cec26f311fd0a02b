# source: https://github.com/jax-ml/jax/issues/13762
# title: Outside Call is not Eliminated
# established-by: maintainer mattjj (the code below is his reproduction in the thread)
# cause: The pure_callback's result is unused, so it is dead code: JAX's and XLA's dead-code elimination remove it and the callback is never called (no print, no host round trip); make_jaxpr shows it only because make_jaxpr applies no DCE.
# static: none
# dynamic: none
# inferred: none
# lines: none

import jax

def callback(x):
  print('called!')
  return x

@jax.jit
def f(x):
  _ = jax.pure_callback(callback, x, result_shape=x)
  return x

f(3.)  # method 1, no print!

print(f.lower(3.).compile().as_text())  # no callback in optimized computation!
