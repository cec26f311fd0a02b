# source: https://github.com/jax-ml/jax/issues/4729
# title: Performance difference between @jit and jit()
# established-by: maintainer jakevdp
# cause: Both %time lines include compilation, and the first one also pays the one-off compilation of jnp.maximum's internal helpers; warmed up, decorator and call form are identical.
# static: LB103
# dynamic: none
# inferred: none
# lines: LB103:23/26

import jax.numpy as jnp
from jax import grad, jit

def relu_default(x):
  return jnp.maximum(0, x)

@jit
def relu_decorator(x):
  return jnp.maximum(0, x)


# jit the function without any decorator and trigger its first compilation.
relu_jit = jit(relu_default)
%time relu_jit(2.0).block_until_ready()       # around 11 ms

# do the same for the function with the @jit decorator.
%time relu_decorator(2.0).block_until_ready() # around 6 ms

# why is the decorator version faster?

# after the initial complilation, the speed discrepancy seems to vanish.
%timeit relu_jit(2.0).block_until_ready()         # 320 µs per loop
%timeit relu_decorator(2.0).block_until_ready()   # 319 µs per loop
