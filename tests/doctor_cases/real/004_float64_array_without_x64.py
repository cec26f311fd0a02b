# source: https://github.com/jax-ml/jax/issues/652
# title: controlling float precision?
# established-by: maintainer mattjj
# cause: JAX silently truncates the requested float64 to float32 unless jax_enable_x64 is set at startup; the thread's fix is config.update("jax_enable_x64", True).
# static: LB108
# dynamic: LB231
# inferred: none
# lines: LB108:13/15

import jax
import jax.numpy as np

A = np.array([[0, 1, 1],
              [1, 0, 1],
              [1, 1, 0]], dtype=np.float64)

print(A.dtype)
# %%
import numpy as onp
oA = onp.array([[0, 1, 1],
              [1, 0, 1],
              [1, 1, 0]], dtype=np.float64)
oA.dtype
# %%
A = np.array(oA)
print(A.dtype)
lu, pivots = jax.lax_linalg.lu(A)
lu.dtype
