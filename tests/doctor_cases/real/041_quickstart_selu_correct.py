# source: https://jax.readthedocs.io/en/latest/notebooks/quickstart.html
# title: JAX Quickstart (Using jit to speed up functions)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct benchmark: %timeit calibrates (and so warms up) before measuring, and each call blocks on its result.
# static: none
# dynamic: none
# inferred: none
# lines: none

import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
# %%
key = random.key(0)
x = random.normal(key, (10,))
print(x)
# %%
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = random.normal(key, (1000000,))
%timeit selu(x).block_until_ready()
# %%
selu_jit = jit(selu)
%timeit selu_jit(x).block_until_ready()
