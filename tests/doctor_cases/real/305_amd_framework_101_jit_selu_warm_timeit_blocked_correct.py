# source: https://github.com/ScXfjiang/amd_framework_101/blob/795d3c9c05cd1179810c102859c6e2f0d1b26bf2/jax_exercise/jit_selu_demo.py
# title: amd_framework_101 `jax_exercise/jit_selu_demo.py`: a jitted SELU on a million floats, called once to compile, then timed with `timeit.timeit(lambda: selu_jit(x).block_until_ready(), number=10)` and reported as the mean
# established-by: maintainer ScXfjiang (the repository's JAX jit exercise, written to dump XLA's HLO for ROCm kernel fusion)
# cause: Correct benchmark code. `selu_jit` is built once, outside the timing, and called once before it ('compiles on first call'), so the ten timed calls reuse the compiled executable (no LB103, LB111); each timed call waits (`.block_until_ready()`); `x` is a device array made before the timing; ten calls are timed, not one (no LB104). The warm-up's result is not waited for, so on an asynchronous backend the first timed call may also wait for the warm-up's execution: at most one extra run in ten, which no catalogue code names. Code: the file as stored at commit 795d3c9, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

import os
# enable kernel fusion for rocm
os.environ["XLA_FLAGS"] = "--xla_dump_to=./xla_dump --xla_dump_hlo_as_dot"

import jax
import jax.numpy as jnp
from jax import jit
import timeit


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


seed = jax.random.key(2024)
x = jax.random.normal(seed, (1_000_000,))
selu_jit = jit(selu)
_ = selu_jit(x)  # compiles on first call
execution_time = timeit.timeit(lambda: selu_jit(x).block_until_ready(), number=10)
average_time_ms = (execution_time / 10) * 1000
print(f"Average execution time over 10 runs: {average_time_ms:.3f} ms")
