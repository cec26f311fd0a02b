# source: https://github.com/leleucas/compiler-paper/blob/a0a5bd0af419110d19af1c82f479144323636e5b/index_test/jax/global_none.py
# title: compiler-paper `index_test/jax/global_none.py`: a broadcast-and-subtract indexing kernel timed eagerly and then jitted, each as 1000 waited calls between two `time.time()` reads, the jitted loop starting with the function's first call
# established-by: maintainer leleucas (the repository's JAX indexing microbenchmarks, one of a set of `index_test` scripts comparing eager and jitted execution)
# cause: The jitted `fast_func` is never called before its timed loop, so its first iteration traces and compiles inside the 'jax jit time' total that is set against the eager loop (LB103, at the call in the timed loop, as case 268's training loops; for a three-operation kernel of 256x4 floats the compile can outweigh the 999 warm calls). Both totals are read with `time.time()`, the wall clock (LB105, at each start read). Every call is waited for, and the inputs are put on the device before the timing. The eager loop is the script's deliberate baseline beside its jitted twin ('jax gpu time' against 'jax jit time'), so its op-by-op dispatch is not labelled (cases 242, 248, 279); its first iteration's per-operation compiles are JAX's own, not LB103 (case 197). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit a0a5bd0, unchanged.
# static: LB103, LB105
# dynamic: n/a
# inferred: LB103 (the jitted function's first call is inside its 1000-call timing; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB103:47, LB105:38/45
# first-sight: 81cc67c 2026-12-06 py: found LB105:45 LB103:47; missed none; false none | notebook: found LB105:45 LB103:47; missed none; false none

import jax.numpy as jnp
from jax import jit, device_put
from jax import random
import numpy as np
import time


def global_none(x, w):
    z = x + w[:,None]
    t = z - x
    return t

if __name__ == "__main__":
    M = 256
    N = 4
    K = 9
    P = 1

    # global int
    x = np.random.randn(M,N).astype(np.float32)
    w = np.random.randn(M).astype(np.float32)
    x = device_put(x)
    w = device_put(w)

    sargs = [x, w]
    fast_func = jit(global_none)

    time1 = time.time()
    for i in range(1000):
        global_none(*sargs).block_until_ready()
    time2 = time.time()

    print("jax gpu time: ", time2 - time1)

    time1 = time.time()
    for i in range(1000):
        fast_func(*sargs).block_until_ready()
    time2 = time.time()

    print("jax jit time: ", time2 - time1)
