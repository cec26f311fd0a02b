# source: https://github.com/jax-ml/jax/issues/2160
# title: Einsum is slow
# established-by: answer by the author romanngg (his blocked `%timeit` of both forms on CPU and GPU, February 2020, and his re-run in June 2020: einsum slow and numerically off on CPU, slow on GPU, fine on TPU)
# cause: `jnp.einsum('nxyc,mxyc->nmxy', optimize=True)` compiled to a slower program than the hand-written transpose, batched `matmul` and transpose it equals, on CPU and GPU (and on CPU its result differed by about 0.01); on TPU both ran alike, so the gap is in how the contraction is lowered for those backends, which the catalogue has no code for. The measurement is sound: both functions are jitted, their first calls run (and compile) in the untimed comparison line, and each `%timeit` waits with `.block_until_ready()`. The posted import `from jax.api import jit` no longer exists in JAX. Code: the snippet as posted.
# static: LB113
# dynamic: none
# inferred: LB113 (`jax.api` was removed from JAX; the import fails today, as `from jax.config import config` does in case 167); the established cause, the lowering of this einsum on CPU and GPU, has no static or dynamic code
# lines: LB113:13
# first-sight: eec90bb 2026-12-03 py: found LB113:13; missed none; false none | notebook: found LB113:13; missed none; false none

import jax.numpy as np
import jax.random as random
from jax.api import jit

a = random.normal(random.PRNGKey(1), (100, 20, 20, 3))
b = random.normal(random.PRNGKey(2), (200, 20, 20, 3))

@jit
def matmul(a, b):
  return np.transpose(np.matmul(np.transpose(a, axes=(1, 2, 0, 3)), np.transpose(b, axes=(1, 2, 3, 0))), axes=(2, 3, 0, 1))

@jit
def einsum(a, b):
  return np.einsum('nxyc,mxyc->nmxy', a, b, optimize=True)

np.sum(np.abs(einsum(a, b) - matmul(a, b)))

%timeit einsum(a, b).block_until_ready()

%timeit matmul(a, b).block_until_ready()
