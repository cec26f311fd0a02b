# source: https://github.com/pantela002/Llama-Jax-Paralelism/blob/5bf617eda0995e922e8e6259f2aae496ad553565/dump/jaxnormal.py
# title: Llama-Jax-Paralelism `dump/jaxnormal.py`: an eager (unjitted) SELU on a million floats, its first call timed with `time.time()` and its later calls with `timeit.timeit(run, number=100)`, every call ending in `.block_until_ready()`
# established-by: maintainer pantela002 (the repository's eager-JAX timing script, the unjitted half of a jit comparison)
# cause: The first call is timed on purpose and reported apart ('Non-JIT first call'), then 100 further calls are timed with `timeit` and reported as the mean: the corpus's reading of a first call timed on purpose and timed again warm (no LB104; `selu` is not jitted, and the per-operation compiles of its first call are JAX's own, case 197, so no LB103). Every call waits (`.block_until_ready()`), and `x` is made on the device before the timing. The one fault is the clock of the first-call interval: `time.time()`, the wall clock (LB105, at the start read). The eager `selu` is the script's subject (the unjitted baseline of a jit comparison), not a loop of dispatches to label LB114 (cases 242, 279). No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit 5bf617e, unchanged (emoji in the comments and prints kept).
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB105:25

import time
import timeit
from jax import random
import jax.numpy as jnp

# Define SELU function (no JIT)
def selu(x):
    return jnp.where(x > 0, 1.0507 * x, 1.0507 * 1.67326 * (jnp.exp(x) - 1))

# Create input
key = random.key(0)
x = random.normal(key, (1_000_000,))

# -------------------------------
# 🟠 Measure FIRST CALL
start = time.time()
selu(x).block_until_ready()
end = time.time()
first_call_ms = (end - start) * 1000
print(f"⏱️ Non-JIT first call: {first_call_ms:.3f} ms")

# -------------------------------
# 🟢 Measure LATER CALLS
def run():
    selu(x).block_until_ready()

# Time it over 100 runs
total_time = timeit.timeit(run, number=100)
avg_time_ms = (total_time / 100) * 1000
print(f"🐌 Non-JIT average time per call: {avg_time_ms:.3f} ms")
