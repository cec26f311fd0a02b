# source: https://docs.jax.dev/en/latest/201/jit.html
# title: Just-in-time compilation (Asynchronous dispatch)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: jnp.dot returns a future immediately, so %time without block_until_ready measures only the dispatch of a 1000x1000 matmul.
# static: LB102
# dynamic: n/a
# inferred: none
# lines: LB102:25

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
