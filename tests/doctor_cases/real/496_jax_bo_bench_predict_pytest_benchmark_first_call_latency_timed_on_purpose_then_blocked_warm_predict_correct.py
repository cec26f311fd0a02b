# source: https://github.com/ricardogr07/JAX-BO/blob/04bfac3fa25b6b4fb0269523ea69169337ab688d/benchmarks/bench_predict.py
# title: JAX-BO's pytest-benchmark `benchmarks/bench_predict.py`: a Gaussian process's `predict` over 256 four-dimensional points, its first call timed apart with `perf_counter` and stored as `first_call_latency_s` in the benchmark's extra info, then the warm call timed by the `benchmark` fixture through a lambda that waits on the result
# established-by: maintainer ricardogr07 (the repository's author; the module docstring says 'First-call latency (trace + compile + execute for this shape) is timed separately; the benchmark measures the warm path with jax.block_until_ready'; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. The first `gp.predict` is timed on purpose as the compile-inclusive first-call latency, as the docstring says, and waited with `jax.block_until_ready` (no LB102; neither LB103 nor LB104, the compile timed on purpose); it also warms the call the fixture then times. pytest-benchmark's `benchmark` runs the lambda over calibrated rounds and reports their statistics (no LB104), and the lambda waits on every result (no LB102). The query points are `jnp.asarray` of the NumPy draw, made before any timing (no LB115); `perf_counter` (no LB105). The trained model `trained_128` and `DIM`, `SEED` come from the suite's `conftest.py`, not shown. A correct doctor stays quiet. Code: the file at commit 04bfac3, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: eed2924 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""GP.predict baseline: one batched call over 256 4D points (n=128 train).

This is the batched reference a future score_candidates would use; the
per-candidate (1, 4) predict path the consumer runs today is measured in
bench_acquisition.py. First-call latency (trace + compile + execute for
this shape) is timed separately; the benchmark measures the warm path
with jax.block_until_ready.
"""

import time

import jax
import jax.numpy as jnp
import numpy as onp

from conftest import DIM, SEED


def bench_predict_batch256(benchmark, trained_128):
    """Run the bench predict batch256 benchmark."""
    gp, kwargs = trained_128
    rng = onp.random.default_rng(SEED + 2)
    X_star = jnp.asarray(rng.uniform(size=(256, DIM)))

    t0 = time.perf_counter()
    jax.block_until_ready(gp.predict(X_star, **kwargs))
    first_s = time.perf_counter() - t0

    benchmark.extra_info["points"] = int(X_star.shape[0])
    benchmark.extra_info["first_call_latency_s"] = round(first_s, 4)

    benchmark(lambda: jax.block_until_ready(gp.predict(X_star, **kwargs)))
