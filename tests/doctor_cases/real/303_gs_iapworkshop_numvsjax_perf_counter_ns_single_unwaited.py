# source: https://github.com/Jengamon/gs-iapworkshop2023/blob/a60497f572cfcd62541b7f3a830b103efdf6d879/numvsjax.py
# title: gs-iapworkshop2023 `numvsjax.py`: a `time_func` helper reads `perf_counter_ns()` around one call of a pure-Python loop, a NumPy product, a "jax_no_jit" product and a jitted `mm`, and prints each duration beside the result
# established-by: maintainer Jengamon (the workshop's NumPy-against-JAX timing script)
# cause: `time_func` takes one sample of each function: one call between two `perf_counter_ns()` reads, printed as that function's duration (LB104, at the first statement inside the clock pair; `perf_counter_ns` is a timer, so no LB105). The jitted `mm` returns a JAX array that nothing waits for before the second clock read: the result is printed only after `end` is taken, so the `jax_jit` figures are dispatch time wherever dispatch is asynchronous (LB102, at the call inside the helper). The first `jax_jit` call traces and compiles inside its timing, but the script times it again right after as `jax_jit_again`, the corpus's reading of a compile timed on purpose and timed again warm (no LB103; cases 200, 264, 287). `data` is a NumPy float64 array, so `jax_no_jit` (`data.T @ data`) is a NumPy product, not JAX work, and `mm` silently computes in float32: a mislabelled comparison the catalogue has no code for. No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit a60497f, unchanged.
# static: LB102, LB104
# dynamic: n/a
# inferred: LB102 (the jitted result is read only after the clock stops; not discussed), LB104 (one sample per function; not discussed)
# lines: LB102:18, LB104:18
# first-sight: 803cd8e 2026-12-06 py: found LB102:18; missed LB104:18; false none | notebook: found LB102:18; missed LB104:18; false none

from time import perf_counter_ns
import numpy as np
import jax.numpy as jnp
from jax import jit

def time_func(func, name):
    start = perf_counter_ns()
    res = func()
    end = perf_counter_ns()
    dur = end - start
    print(f"{name}() result = {res}")
    print(f"duration: {dur}ns ({dur/1_000:.0}µs) ({dur/1_000_000:.0}ms) ({dur/1_000_000_000:.0}sec)")

data = np.random.normal(size=(1_000, 1))

def basic_python():
    result = 0
    for i in range(0, 1_000):
        result += data.T[0, i] * data[i, 0]
    return result

def numpy():
    return data.T @ data

def jax_no_jit():
    return data.T @ data

@jit
def mm(data):
    return data.T @ data
def jax_jit():
    return mm(data)

time_func(basic_python, "basic_python")
time_func(numpy, "numpy")
time_func(jax_no_jit, "jax_no_jit")
time_func(jax_jit, "jax_jit")
time_func(jax_jit, "jax_jit_again")
