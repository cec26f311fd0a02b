# case: real/041_quickstart_selu_correct.py
# form: ipython
# causes: none
# changed: x of 100000 elements instead of 1000000

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

x = random.normal(key, (100000,))
%timeit selu(x).block_until_ready()
# %%
selu_jit = jit(selu)
%timeit selu_jit(x).block_until_ready()
