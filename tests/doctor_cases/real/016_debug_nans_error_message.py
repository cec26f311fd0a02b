# source: https://github.com/jax-ml/jax/issues/24955
# title: `debug_nans` error always says the de-optimized function did not produce NaNs
# established-by: maintainer emilyfertig
# cause: A regression in debug_nans' error path reported that the de-optimized function produced no NaN even when it did; fixed by reworking how the de-optimized re-run is triggered.
# static: none
# dynamic: LB291
# inferred: LB291 (jax_debug_nans is left on; the thread was about its message, not its cost)
# lines: none

import jax
import jax.numpy as jnp
jax.config.update("jax_debug_nans", True)

@jax.jit
def f(x, y):
  w = jnp.sin(x) - y**2
  z = jnp.log(w)
  return z*2

print(f(0.5, 0))
print(f(-2., 5))  # ==> FloatingPointError with note that the NaN doesn't appear without jit

print(jnp.log(-5.) ) # ==> same error with note
