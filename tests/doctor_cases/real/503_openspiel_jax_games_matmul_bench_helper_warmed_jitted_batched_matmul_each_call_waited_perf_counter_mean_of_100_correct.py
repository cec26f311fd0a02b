# source: https://github.com/jhtschultz/openspiel-jax-games/blob/fb7e0a2f673002d8817a753daa2a389afc364840/matmul_bench.py
# title: openspiel-jax-games' `matmul_bench.py`: a jitted batched matrix multiply (64 products of 1024x1024 matrices) in a `benchmark_matmul` helper, compiled by one waited warm-up call, then 100 calls each waited inside one `perf_counter` interval, reported as the mean time per call and as TFLOPS
# established-by: maintainer jhtschultz (the repository's author; the comment '# Warmup (includes compilation)' says what the first call is for; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. `batched_matmul` is jitted once inside the helper, which runs once (no LB111), and compiled by the warm-up call, waited with `block_until_ready()`, before the clock starts (no LB103). Every timed call is waited before the next and the last before the end read (no LB102). The figure is the mean over 100 calls in one interval (no LB104), read with `perf_counter` (no LB105). The operands are made on the device with `jax.random.normal` before the timing (no LB115), and they are two distinct arrays, a general product (no LB110; there is no NumPy side anyway). A correct doctor stays quiet. Code: the file at commit fb7e0a2, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 6043315 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Simple JAX GPU benchmark: batched matrix multiply."""

import jax
import jax.numpy as jnp
import time

def benchmark_matmul(batch_size=64, matrix_size=1024, num_runs=100):
    """Benchmark batched matrix multiplication."""

    print(f"JAX devices: {jax.devices()}")
    print(f"\nBenchmark: {batch_size}x ({matrix_size}x{matrix_size}) @ ({matrix_size}x{matrix_size})")
    print("-" * 50)

    # Create random matrices
    key = jax.random.PRNGKey(0)
    k1, k2 = jax.random.split(key)
    A = jax.random.normal(k1, (batch_size, matrix_size, matrix_size))
    B = jax.random.normal(k2, (batch_size, matrix_size, matrix_size))

    # JIT compile the matmul
    @jax.jit
    def batched_matmul(a, b):
        return jnp.matmul(a, b)

    # Warmup (includes compilation)
    print("Warming up (JIT compile)...")
    result = batched_matmul(A, B)
    result.block_until_ready()

    # Benchmark
    print(f"Running {num_runs} iterations...")
    start = time.perf_counter()
    for _ in range(num_runs):
        result = batched_matmul(A, B)
        result.block_until_ready()
    elapsed = time.perf_counter() - start

    avg_ms = (elapsed / num_runs) * 1000
    total_flops = batch_size * (2 * matrix_size**3) * num_runs
    tflops = total_flops / elapsed / 1e12

    print(f"\nResults:")
    print(f"  Average time: {avg_ms:.2f} ms")
    print(f"  Throughput:   {tflops:.2f} TFLOPS")
    print(f"  Output shape: {result.shape}")

if __name__ == "__main__":
    benchmark_matmul()
