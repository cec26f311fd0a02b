# case: real/035_jit201_selu_correct.py
# form: ipython
# causes: none
# changed: x = jnp.arange(100000) instead of 1000000

import jax
import jax.numpy as jnp

def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = jnp.arange(100000)
%timeit selu(x).block_until_ready()
# %%
selu_jit = jax.jit(selu)

# Warm up: the first call traces and compiles.
selu_jit(x).block_until_ready()

%timeit selu_jit(x).block_until_ready()
