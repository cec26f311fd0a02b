# source: https://github.com/ScXfjiang/amd_framework_101/blob/bd9b18541a4e9208f3053c65ca6e3103e6092786/jax_exercise/jit_selu_demo.py
# title: amd_framework_101 JAX exercise: the quickstart's `selu` on a million-element array, eager (`selu_demo.py`) and jitted after one compiling call (`jit_selu_demo.py`), each timed by `timeit.timeit` of ten waited calls
# established-by: maintainer ScXfjiang (the repository's JAX exercise pair)
# cause: Correct benchmark code. Both timed lambdas end in `.block_until_ready()`, so each of the ten calls is waited for and the total is divided by ten. The jitted version is called once before `timeit` (`# compiles on first call`), so the compile is out of the timing; that call is not waited for, so the first timed call also waits for its queued run, one extra run of a millisecond-scale function over ten. The eager version is the exercise's baseline on purpose; its JAX operations compile on first use inside the first of the ten calls, JAX's own operations, which the corpus does not label (as for cases 197 and 245). Code: `selu_demo.py` and `jit_selu_demo.py` as stored at commit bd9b185, unchanged, one cell each.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 5c7b2e5 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp
import timeit


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


seed = jax.random.key(2024)
x = jax.random.normal(seed, (1_000_000,))
execution_time = timeit.timeit(lambda: selu(x).block_until_ready(), number=10)
average_time_ms = (execution_time / 10) * 1000
print(f"Average execution time over 10 runs: {average_time_ms:.3f} ms")
# %%
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
