# source: https://github.com/jax-ml/jax/issues/2980
# title: SVD in gpu is very slow compare to cpu
# established-by: maintainer hawkinsp ('JAX mostly just calls NVidia's cusolver library for SVD on GPU ... isn't the likely cause that a T4 GPU has 1/32th the fp64 FLOPs as compared to fp32'); the issue was closed as a question on that answer
# cause: The script enables `jax_enable_x64`, so the 10,000 x 10,000 SVD runs in float64, and a T4 has 1/32 of its float32 throughput in float64; the GPU run takes minutes where the CPU takes a second. The `%%time` cell also measures more than the SVD: it builds the random matrix on the host and converts it to a JAX array inside the timing, its call is the first of the jitted `k_rank_approax` (so tracing and compilation are included), and the result is not waited for. `from jax.config import config` no longer imports. Code: the snippet as posted, the `%%time` cell as its own cell.
# static: LB113, LB115, LB103, LB102
# dynamic: n/a
# inferred: LB113 (`from jax.config import config` fails on current JAX), LB115 (the NumPy matrix is converted with `np.asarray`, jax.numpy here, inside the timed cell), LB103 (the timed call is the jitted function's first), LB102 (`xk` is not waited for); none was discussed
# lines: LB113:16, LB115:27, LB103:28, LB102:28
# first-sight: 7b74e08 2026-12-03 py: found LB113:16; missed LB102:28, LB103:28, LB115:27; false LB102:27 | notebook: found LB113:16; missed LB102:28, LB103:28, LB115:27; false LB102:27

import jax
import jax.numpy.linalg as la
import jax.numpy as np
from jax import jit, lax
import numpy as onp
from jax.config import config; config.update("jax_platform_name", "cpu");config.update("jax_enable_x64","true")

@jax.partial(jit, static_argnums=1)
def k_rank_approax(X, k=10):
    k = min(k, min(X.shape))
    u, s, vt = la.svd(X, full_matrices=False, compute_uv=True)
    Xk = np.dot(u[:, :k], np.dot(np.diag(s[:k]), vt[:k, :]))
    return Xk

# %%
%%time
x = np.asarray(onp.random.random((10000,10000)))
xk = k_rank_approax(x,10000)
