# source: https://github.com/tobias-schnabel/mcnnm/blob/95fff7887333007de6819c0e8c8c3fdb8a1b51f2/benchmarking/test_jit.py
# title: mcnnm `benchmarking/test_jit.py`: a parametrized pytest that times `estimate` once with `jax_disable_jit`, its jitted wrapper's compile once, then the compiled call once, each between two `time.time()` reads, and asserts the jitted run is faster
# established-by: maintainer tobias-schnabel (the package's JIT benchmark test, one of its `benchmarking/` scripts)
# cause: `run_estimate` reads the clock once before and once after a single call (`estimate` under `jax_disable_jit`, or the pre-compiled jitted wrapper), and that one sample is the figure printed and the figure the test's `assert ratio < 1` rests on (LB104, at the first statement inside the clock pair; the same helper times both sides). The compile is timed on purpose in `compile_estimate` and printed as 'Compilation time' before the warm call is timed (the corpus's reading of a compile timed on purpose and timed again warm: no LB103 or LB104 there, cases 200, 216, 287). Every interval is read with `time.time()`, the wall clock (LB105, at each start read). Each timed call waits (`result.tau.block_until_ready()`, one output of the compiled call). The un-jitted run under `jax_disable_jit` is the deliberate baseline of the comparison, not a loop of dispatches to label LB114 (cases 242, 279). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 95fff78, unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (one sample per configuration, and the test asserts on the ratio of two single samples; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:39, LB105:38/65
# first-sight: 803cd8e 2026-12-06 py: found LB105:38 LB105:65; missed LB104:39; false none | notebook: found LB105:38 LB105:65; missed LB104:39; false none

import jax
import jax.numpy as jnp
import time
from mcnnm.estimate import estimate
from mcnnm.util import generate_data
import pytest

# Enable 64-bit floats
# jax.config.update("jax_enable_x64", True)

# Enable compilation logging
# jax.config.update("jax_log_compiles", True)


def run_estimate(N, T, jit_enabled, pre_compiled_fn=None):
    """Run estimate function and time it."""
    if not jit_enabled:
        jax.config.update("jax_disable_jit", True)
    else:
        jax.config.update("jax_disable_jit", False)

    # Generate data
    data, _ = generate_data(nobs=N, nperiods=T, X_cov=True, Z_cov=True, V_cov=True)
    Y = jnp.array(data.pivot(index="unit", columns="period", values="y").values)
    W = jnp.array(data.pivot(index="unit", columns="period", values="treat").values)

    # Timed run
    start_time = time.time()
    if pre_compiled_fn:
        result = pre_compiled_fn(Y, W)
    else:
        result = estimate(Y, W)
    result.tau.block_until_ready()  # Ensure computation is complete
    end_time = time.time()

    execution_time = end_time - start_time

    if not jit_enabled:
        jax.config.update("jax_disable_jit", False)

    return execution_time


def compile_estimate(N, T):
    """Compile the estimate function for given dimensions and time the compilation."""
    data, _ = generate_data(nobs=N, nperiods=T, X_cov=True, Z_cov=True, V_cov=True)
    Y = jnp.array(data.pivot(index="unit", columns="period", values="y").values)
    W = jnp.array(data.pivot(index="unit", columns="period", values="treat").values)

    @jax.jit
    def compiled_estimate(Y, W):
        return estimate(Y, W)

    # Time the compilation
    start_time = time.time()
    _ = compiled_estimate(Y, W).tau.block_until_ready()
    compilation_time = time.time() - start_time

    return compiled_estimate, compilation_time


@pytest.mark.parametrize(
    "N,T", [(10, 10), (50, 50), (100, 100), (1000, 1000), (100, 3000), (3000, 100), (2000, 2000)]
)
def test_estimate_jit_performance(N, T):
    print(f"\nTesting with matrix size {N}x{T}")

    # Run with JIT disabled
    time_no_jit = run_estimate(N, T, jit_enabled=False)
    print(f"Execution time without JIT: {time_no_jit:.4f} seconds")

    # Compile the function and measure compilation time
    compiled_fn, compilation_time = compile_estimate(N, T)
    print(f"Compilation time: {compilation_time:.4f} seconds")

    # Run with JIT enabled and pre-compiled function
    time_with_jit = run_estimate(N, T, jit_enabled=True, pre_compiled_fn=compiled_fn)
    print(f"Execution time with JIT (pre-compiled): {time_with_jit:.4f} seconds")

    # Compare times
    ratio = time_with_jit / time_no_jit
    if ratio > 1:
        print(f"Slowdown with JIT: {ratio:.2f}x")
    else:
        print(f"Speedup with JIT: {1 / ratio:.2f}x")

    assert ratio < 1, f"JIT should provide speedup, but got slowdown of {ratio:.2f}x"


if __name__ == "__main__":
    pytest.main([__file__])
