# source: https://github.com/pantela002/Llama-Jax-Paralelism/blob/5bf617eda0995e922e8e6259f2aae496ad553565/dump/jaxjit.py
# title: Llama-Jax-Paralelism `dump/jaxjit.py` and `dump/jaxnormal.py`: the quickstart `selu` jitted and eager, the first call timed on purpose with `time.time()`, later calls with a waited `timeit` of 100 runs
# established-by: maintainer pantela002 (the repository's author; two scripts of its `dump/` folder)
# cause: Both scripts wait for every result (`.block_until_ready()` inside the timed statements) and say what each figure is: the first, one `time.time()` pair around the first call, is labelled 'First call (includes compile)' (and 'Non-JIT first call' for the eager one), a compile and first-dispatch cost measured on purpose, which the corpus's reading leaves out of LB103 and LB104 (cases 200, 202, 212, 216); the second is `timeit.timeit(run, number=100)` of the warm, waited call, averaged. The one weakness left is the clock of the first figures: `time.time()`, the wall clock, where `perf_counter` is the interval timer. Code: the two files as stored at commit 5bf617e, unchanged, `jaxjit.py` first, one per `# %%` cell (the source line names the first; `jaxnormal.py` sits beside it in `dump/`).
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock of both first-call figures; not discussed)
# lines: LB105:31/64
# first-sight: 9c65424 2026-12-06 py: found LB105:31 LB105:64; missed none; false none | notebook: found LB105:31 LB105:64; missed none; false none

# %%
# dump/jaxjit.py
import time
import timeit
from jax import jit, random
import jax.numpy as jnp

# Define SELU function
def selu(x):
    return jnp.where(x > 0, 1.0507 * x, 1.0507 * 1.67326 * (jnp.exp(x) - 1))

# JIT compile it
selu_jit = jit(selu)

# Create input
key = random.key(0)
x = random.normal(key, (1_000_000,))

# -------------------------------
# 🟠 Measure FIRST CALL (compilation + execution)
start = time.time()
selu_jit(x).block_until_ready()
end = time.time()
first_call_ms = (end - start) * 1000
print(f"⏱️ First call (includes compile): {first_call_ms:.3f} ms")

# -------------------------------
# 🟢 Measure LATER CALLS (cached, fast)
def run():
    selu_jit(x).block_until_ready()

# Use timeit to repeat the run 100 times
total_time = timeit.timeit(run, number=100)
avg_time_ms = (total_time / 100) * 1000
print(f"⚡ JIT-compiled SELU average time: {avg_time_ms:.3f} ms")

# %%
# dump/jaxnormal.py
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
