# case: real/020_relu_compile_in_time.py
# form: ipython
# causes: LB103:19/22
# changed: none

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
