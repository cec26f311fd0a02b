# source: https://github.com/tlkh/m1-cpu-benchmarks/blob/d91e66663d685ee0092df85f2cb4b94062f53822/jax_benchmarks.py
# title: m1-cpu-benchmarks `jax_benchmarks.py`: TFLOPS of a 4096x4096 matmul, eager and jitted over 100 waited calls, and of a 100-matrix batch, naive and vmapped, each timed with `time.time()`
# established-by: maintainer tlkh (the repository's JAX benchmark script, which prints the TFLOPS figures it compares)
# cause: The script warms every path before timing it and waits for every result, so its figures are not dispatch or compile times. Two of the catalogue's weaknesses remain. Every interval is read with `time.time()`, the wall clock. And the naively batched and the vmapped timings are each one sample, one warm call between two clock reads, from which a TFLOPS figure is printed with no repeat to judge it by; the two matmul figures are totals over 100 waited calls, a loop timed as a whole. The naive batch (a list comprehension of 100 eager `jnp.dot` calls) is the JAX quickstart's deliberate baseline for `vmap`, not LB114 (as for case 242). Code: the file as stored (commit d91e666).
# static: LB105, LB104
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock of all four timings; not discussed, as for cases 202 and 207), LB104 (one sample each of the naive and the vmapped batch; not discussed)
# lines: LB105:28/44/63/80, LB104:64/81
# first-sight: 12e883c 2026-12-06 py: found LB105:28 LB105:44 LB105:63 LB104:64 LB105:80 LB104:81; missed none; false LB114:30 LB114:59 | notebook: found LB105:28 LB105:44 LB105:63 LB104:64 LB105:80 LB104:81; missed none; false LB114:30 LB114:59

import time
import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
key = random.PRNGKey(0)

size = 4096
iterations = 100

mat = random.normal(key, (size, size))
mat_T = mat.T

def apply_matrix(v):
    return jnp.dot(mat, v)

apply_matrix(mat_T).block_until_ready()

st = time.time()
for i in range(iterations):
    apply_matrix(mat_T).block_until_ready()
et = time.time()

duration = et-st
fps = iterations/duration
matmul_flops = 2 * (size**3)
TFLOPS = fps*matmul_flops/(1e12)

print(TFLOPS)

apply_matrix_jit = jit(apply_matrix)

apply_matrix_jit(mat_T).block_until_ready()

st = time.time()
for i in range(iterations):
    apply_matrix_jit(mat_T).block_until_ready()
et = time.time()

duration = et-st
fps = iterations/duration
matmul_flops = 2 * (size**3)
TFLOPS = fps*matmul_flops/(1e12)

print(TFLOPS)

batched_x = random.normal(key, (iterations, size, size))

def naively_batched_apply_matrix(v_batched):
    return jnp.stack([apply_matrix(v) for v in v_batched])

naively_batched_apply_matrix(batched_x).block_until_ready()

st = time.time()
naively_batched_apply_matrix(batched_x).block_until_ready()
et = time.time()

duration = et-st
fps = iterations/duration
matmul_flops = 2 * (size**3)
TFLOPS = fps*matmul_flops/(1e12)

print(TFLOPS)

@jit
def vmap_batched_apply_matrix(v_batched):
    return vmap(apply_matrix)(v_batched)

vmap_batched_apply_matrix(batched_x).block_until_ready()

st = time.time()
vmap_batched_apply_matrix(batched_x).block_until_ready()
et = time.time()

duration = et-st
fps = iterations/duration
matmul_flops = 2 * (size**3)
TFLOPS = fps*matmul_flops/(1e12)

print(TFLOPS)
