# source: https://github.com/jax-ml/jax/issues/31368
# title: jax.lax.linalg.eigh performance cliff for larger batch sizes (on GPUs)
# established-by: maintainer jaro-sevcik (the author, who traced it to the GPU solver heuristic and fixed it in jax-ml/jax#31375, approved by hawkinsp)
# cause: On GPU `jax.lax.linalg.eigh` used the batched Jacobi solver only up to 32 columns and an unbatched divide-and-conquer solver, looping over the 1024 matrices, above it: a 1000x cliff between 32x32 and 33x33. The fix calls a batched syev. The measurement itself is sound in kind (a warm-up call, a blocked result), but each size is one `timeit` sample of one call (`number=1`). The lambda applies `jax.jit` to `jax.lax.linalg.eigh` on every call; that is the same function object, so JAX's cache is hit and nothing compiles again: not labelled. Code: the reproducer as posted.
# static: LB104
# dynamic: none
# inferred: LB104 (`timeit.timeit(run, number=1)` is one sample of one call per size; not discussed)
# lines: LB104:19
# first-sight: 7b74e08 2026-12-03 py: found none; missed LB104:19; false none | notebook: found none; missed LB104:19; false none

import jax
import jax.numpy as jnp
import timeit

def run_and_time(n):
    a = jnp.ones((1024, n, n))
    run = lambda: jax.jit(jax.lax.linalg.eigh)(a)[0].block_until_ready()
    run() # Warmup
    print(f"Time per batch (ms): {timeit.timeit(run, number=1) * 1000:.2f} (shape: {a.shape})")

for i in range(30, 35):
    run_and_time(i)
