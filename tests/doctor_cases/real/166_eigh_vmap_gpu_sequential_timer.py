# source: https://github.com/jax-ml/jax/issues/10180
# title: jax.lax.linalg.eigh on GPU seems too slow
# established-by: maintainer hawkinsp ('Ultimately JAX is at the mercy of the algorithms provided by cusolver here. For small matrices (smaller than 32x32), JAX currently uses the batched Jacobi solver ... For larger matrices, JAX currently iterates over the batch elements sequentially, so you should expect no speedup from vmap')
# cause: `jax.vmap` of `eigh` over 16 matrices of 1024 x 1024 is not a batched solve on GPU: cuSOLVER's batched Jacobi solver is used only below 32 x 32, and larger matrices are solved one after another, so the GPU gives less than 4x the throughput of one CPU core running SciPy. The benchmark itself is sound: `timer` warms the function up, runs it three times and averages, the JAX calls wait through `jax.block_until_ready` inside the lambda, and the inputs are built and waited for before any timing. Only its clock is the wall clock. Code: the script as posted.
# static: LB105
# dynamic: none
# inferred: LB105 (`time()` imported from `time` is `time.time`, the wall clock, as the interval clock; not discussed)
# lines: LB105:17
# first-sight: 7b74e08 2026-12-03 py: found LB105:17; missed none; false LB102:19 | notebook: found LB105:17; missed none; false LB102:19

import jax
import jax.numpy as jnp

def timer(f):
    from time import time
    f() # warmup and compile
    t = time()
    for _ in range(3):
        f()
    print((time() - t) / 3)

y = jax.random.uniform(jax.random.PRNGKey(0), (16, 1024, 1024)) / 16
s = jax.block_until_ready(y @ y.transpose(0, 2, 1) + jnp.eye(1024))

from jax.lax.linalg import eigh as jeigh
f = jax.jit(jax.vmap(jeigh))
timer(lambda: jax.block_until_ready(f(s)))

from scipy.linalg import eigh as seigh
import numpy as np
ss = np.array(s[0])
timer(lambda: seigh(ss))
