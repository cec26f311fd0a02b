# source: https://docs.jax.dev/en/latest/control-flow.html
# title: Control flow and logical operators with JIT
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct code: a Python loop of three iterations under jit unrolls into three multiplications, which the docs (and the FAQ on slow compilation) call fine; only many iterations make tracing and compilation slow.
# static: none
# dynamic: none
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

from jax import grad, jit
import jax.numpy as jnp
# %%
@jit
def f(x):
  for i in range(3):
    x = 2 * x
  return x

print(f(3))
