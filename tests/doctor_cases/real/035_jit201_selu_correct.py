# source: https://docs.jax.dev/en/latest/201/jit.html
# title: Just-in-time compilation (What compilation buys you)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct benchmark: the jitted function is warmed up outside the timing and every timed call blocks on its result.
# static: none
# dynamic: none
# inferred: none
# lines: none

import jax
import jax.numpy as jnp

def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = jnp.arange(1000000)
%timeit selu(x).block_until_ready()
# %%
selu_jit = jax.jit(selu)

# Warm up: the first call traces and compiles.
selu_jit(x).block_until_ready()

%timeit selu_jit(x).block_until_ready()
