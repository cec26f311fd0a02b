# source: https://github.com/google/TensorNetwork/issues/248
# title: google/TensorNetwork#248 ('jax backend is very slow for MPS'): an IPython cell timing 10 sweeps of `FiniteMPS.position` there and back with `time.time()` for the numpy, jax, tensorflow and pytorch backends, chosen by editing a string; JAX averaged 19.9 s per `position` call against NumPy's 0.05 s
# established-by: maintainer mganahl
# cause: mganahl, a TensorNetwork maintainer, posted the benchmark and named the cause in the same post: the JAX backend runs each contraction and decomposition of the sweep op by op without `jax.jit`, as the TensorFlow backend needs `tf.function` to come near NumPy, and the backend's functions should be jitted. That cause is inside the library's backend and not in the posted code, which as posted runs `backend='numpy'` (the JAX figure came from editing that string), so a correct doctor cannot report it here. What it reports on the cell, by the catalogue: each sweep is read with `time.time()`, the wall clock (LB105, at the two start reads); the 20 sweeps are averaged (no LB104). Noted, not labelled: with the jax backend nothing waits for the sweep's results before the clock is read; `tf.enable_v2_behavior` lives in `tf.compat.v1` in TensorFlow 2 (the catalogue checks jax, numpy and torch names only). Code: the code block as posted, IPython magics included, under one `# %%` cell marker.
# static: LB105
# dynamic: n/a
# inferred: LB105 (the wall clock as the interval clock; not discussed in the thread, which is about the unjitted backend)
# lines: LB105:28/31
# first-sight: fb4008d 2026-12-06 py: found none; missed LB105:28/31; false none | notebook: found none; missed LB105:28/31; false none

# %%
import tensornetwork as tn
import numpy as np
import time
import tensorflow as tf

tf.enable_v2_behavior()
%load_ext autoreload
%autoreload 2
import torch
D, d, N = 50, 2, 100
backend='numpy' #'jax','tensorflow','pytorch'
tensors = [np.random.rand(1,d,D)] + [np.random.rand(D,d,D) for _ in range(N-2)] + [np.random.rand(D,d,1)]
mps = tn.mps.FiniteMPS(tensors, center_position=0, backend=backend)
times = []
for n in range(10):
    print(n)
    t1 = time.time()
    mps.position(N-1)
    times.append(time.time() - t1)
    t1 = time.time()
    mps.position(0)
    times.append(time.time() - t1)
print(np.average(times))
