# source: https://github.com/kikipet/ReducedTensorProduct.jl/blob/bed5598f78c766d6acfb3a1304ba92c9bf9e5571/benchmark_jax.py
# title: kikipet's ReducedTensorProduct.jl `benchmark_jax.py` (a Julia port of e3nn's reduced tensor product, timed against the JAX original): a `benchmark(f, n, **kwargs)` helper that calls `f` once untimed, then sums `n` per-call `time.time()` intervals and returns their mean, used on `rtp_jax.reduced_tensor_product_basis` for the irreps '0e+1o+2e+3o'
# established-by: maintainer kikipet (the repository's own benchmark script; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The helper's clock is `time.time()`, read on each pass around one call (LB105 at the `start = time.time()` line, the interval's stop in the `tot_time +=` line). Not labelled: the helper calls `f` once before timing (no LB103), and the figure is the mean of `n` = 10 samples (no LB104); the timed function builds a basis with e3nn's NumPy-side machinery whose result is not a dispatched JAX computation a wait is missing from, and the script's result is discarded in both the warm-up and the samples (no LB102 claimed: the catalogue cannot see what `rtp_jax` returns). The commented-out 'JAX w/ caching' block is kept as posted. Code: the file as stored at commit bed5598, unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock inside the helper, as elsewhere in the corpus; not discussed)
# lines: LB105:20/22
# first-sight: a0c2c7e 2026-12-07 py: found LB105:20; missed none; false none | notebook: found LB105:20; missed none; false none

import jax
import e3nn_jax._src.reduced_tensor_product as rtp  # uses lru cache
import rtp_jax  # no caching :P
import time

def benchmark(f, n, **kwargs):
    f(**kwargs)
    tot_time = 0
    for _ in range(n):
        start = time.time()
        f(**kwargs)
        tot_time += time.time() - start
    return tot_time / n

irreps = ["0e+1o+2e+3o"]
# irreps = ["0e", "0e+1o", "0e+1o+2e", "0e+1o+2e+3o", "0e+1o+2e+3o+4e"]

# print("JAX w/ caching")
# for irrep in irreps:
#     print(f"Benchmarking {irrep}")
#     runtime = benchmark(rtp.reduced_tensor_product_basis, 10, **{
#         "formula_or_irreps_list": "ijk=jik=kij",
#         "i":irrep,
#     })
#     print(f"Time: {runtime} s")

# print("=====")
print("JAX w/o caching")

for irrep in irreps:
    print(f"Benchmarking {irrep}")
    runtime = benchmark(rtp_jax.reduced_tensor_product_basis, 10, **{
        "formula_or_irreps_list": "ijk=jik=kij",
        "i":irrep,
    })
    print(f"Time: {runtime} s")

print("=====")
