# source: https://github.com/AlexandreDabySeesaram/benchmark_np_jnp_torch/blob/75dddff67a140a10ab5683ec2bf45aaa61cba553/benchmark_toolkit.py
# title: benchmark_np_jnp_torch's `benchmark_toolkit.py`: the `jax_test` helper that times, for NumPy/JAX/PyTorch matrix benchmarks, a chain of six eager `jnp` matrix products under `jnp.trace` and the same product as one `jnp.einsum`, each repeated `N_loop` times between `time.time()` reads and reported as milliseconds per call (driven by the repository's `bench_jax.py` over ten sizes up to 5000x5000 on the CPU)
# established-by: maintainer AlexandreDabySeesaram (the repository's author; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. In each branch the loop dispatches `N_loop` eager JAX computations and keeps only the last result (`C_0`, `C_1`); nothing waits on it before `stop = time.time()`, so the figure can stop at dispatch with the last products still queued (LB102, at the call in each timed loop; the catalogue's reading of unwaited JAX results between clock reads; the driver sets `JAX_PLATFORMS=cpu`, where dispatch is asynchronous too). Both intervals start with `time.time()` (LB105, at both start reads). Not labelled: the eager chain is the benchmark's subject, an eager baseline timed on purpose, not LB114 (279's reading); nothing is warmed before the first timed call at each new size, so each size's first pass pays the eager primitives' compiles, but the catalogue's LB103 is the first call of a jitted function and the corpus has no reading of eager first calls as LB103, so it is noted only. The matrices are `jnp.array` copies made by the driver before the call (no LB115). Code: `benchmark_toolkit.py` at commit 75dddff, trimmed to its imports and `jax_test`: `numpy_test`, `torch_test` and `numpy_test_ti` (the NumPy and PyTorch helpers, and a `timeit` NumPy variant) are left out; `jax_test` unchanged.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (the last eager result of each timed loop is not waited on before the end read), LB105 (`time.time()` start reads); the catalogue's readings, not discussed
# lines: LB102:24/32, LB105:22/30
# first-sight: eed2924 2026-12-06 py: found LB105:22 LB102:24 LB105:30 LB102:32; missed none; false none | notebook: found LB105:22 LB102:24 LB105:30 LB102:32; missed none; false none

import time
import timeit

def jax_test(methods, N_loop, matrices, output = False, results = None, verbose = True):
    import os
    os.environ["JAX_PLATFORMS"] = "cpu"
    import jax
    import jax.numpy as jnp
    for method in methods:
        match method:
            case "matmul":
                start = time.time()
                for i in range(N_loop):
                    C_0 = jnp.trace(matrices[0]@matrices[1]@matrices[0]@matrices[1]@matrices[0]@matrices[1])
                stop = time.time()
                duration = 1000*(stop-start)/N_loop

            case "einsum":
                try:
                    start = time.time()
                    for i in range(N_loop):
                        C_1 = jnp.einsum('ij,jk,kl,lm,mn,ni->', matrices[0], matrices[1],matrices[0], matrices[1],matrices[0], matrices[1])
                    stop = time.time()
                    duration = 1000*(stop-start)/N_loop
                except:
                    duration = "FAILED"
        if output: 
            solver_name = "jax"
            method_name = method
            size_name = matrices[0].shape[0]
            results.setdefault(solver_name, {}).setdefault(method_name, []).append(duration)
            results.setdefault(solver_name, {}).setdefault("N", []).append(size_name)
        if verbose:
            print(f"* Duration jax [{method}] (ms) = {duration}")
    return results
