# case: real/023_async_dispatch_docs_dot.py
# form: ipython
# causes: LB102:22
# changed: none
# note: the unblocked %time was warmed by `jnp.dot(x, x) + 3.0` in the cell before, so it holds no compilation

import jax
import jax.numpy as jnp

def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = jnp.arange(1000000)
%timeit selu(x).block_until_ready()
# %%
import numpy as np
from jax import random

x = random.uniform(random.key(0), (1000, 1000))
jnp.dot(x, x) + 3.0
# %%
%time jnp.dot(x, x)
# %%
%time jnp.dot(x, x).block_until_ready()
