# source: https://github.com/ybillchen/jax_talk/blob/b34e2c562b4362568529ca05b3d2e2f18b5d44b0/jax.ipynb
# title: ybillchen/jax_talk's JAX talk notebook, section '1. `jax.jit()` Just-in-time compilation': SELU on `jnp.arange(1000000)` timed with IPython's `%timeit` without jit and with `jax.jit`, each statement waited with `.block_until_ready()`; stored outputs 1.92 ms and 342 us
# established-by: maintainer ybillchen (the talk's author; the stored outputs are the two figures the talk compares)
# cause: Correct timing of an eager function against its jitted form. Both `%timeit` statements wait with `.block_until_ready()` (no LB102); `%timeit` without `-n` runs calibration loops before the reported ones, so `selu_jit`'s compile (and the eager operations' first-use compiles) stay out of the reported figures (no LB103; 041's and 470's reading); `x` is a JAX array made once before the timings (no LB115); the eager `selu` is the baseline on purpose, the quickstart's comparison (no LB114, 242's reading); each figure is a mean and spread over 7 runs (no LB104). `x` is int32 (`jnp.arange`), which `jnp.exp` promotes to float32: the same program both ways, so the comparison stands. Code: the notebook's import cell and its two SELU cells at commit b34e2c5, unchanged; the markdown and the untimed cells (jaxpr printing, a `vmap` convolution, `grad`) are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: d481e6f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
import jax
import jax.numpy as jnp

# %%
# Without jit

def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = jnp.arange(1000000)
%timeit selu(x).block_until_ready()

# %%
# With jit

selu_jit = jax.jit(selu)
%timeit selu_jit(x).block_until_ready()
