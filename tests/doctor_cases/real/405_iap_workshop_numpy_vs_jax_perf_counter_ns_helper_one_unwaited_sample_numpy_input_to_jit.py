# source: https://github.com/Jengamon/gs-iapworkshop2023/blob/a60497f572cfcd62541b7f3a830b103efdf6d879/numvsjax.py
# title: An IAP workshop's `numvsjax.py`: a `time_func` helper that reads `perf_counter_ns()` around one call and prints the result and the duration, applied once each to a Python loop, a NumPy product, a 'jax_no_jit' product and a jitted `mm` (twice: 'jax_jit' and 'jax_jit_again') over one 1000x1 NumPy array
# established-by: maintainer Jengamon (the repository author's workshop script; no issue discusses its timing)
# cause: The script compares a pure-Python dot product, NumPy, 'JAX without jit' and a jitted JAX product by one `time_func` call each. What a correct doctor reports, by the catalogue and the corpus's readings: inside `time_func` the clock stops right after `res = func()`, and the result is read only afterwards by the f-string `print`, so for the jitted `mm` the figure can stop at dispatch (LB102, at the timed statement in the helper, 401's and 398's reading of a discarded or later-read JAX result); every figure is one call between two clock reads, with no repetition (LB104, at the first statement inside the clock pair, the helper's `res = func()`); and the jitted `mm` is handed the module-level NumPy array `data` on every timed call, so each call copies it from host memory to the device before the product runs (LB115 at `return mm(data)`, 365's reading of NumPy inputs handed to a jitted function in the timed call). The first 'jax_jit' figure holds the trace and compile of `mm`, and the script times the same call again right after as 'jax_jit_again', the cold-then-warm pair of 287 and 372 (a compile timed on purpose, no LB103). The clock is `perf_counter_ns` (no LB105). 'jax_no_jit' is NumPy's `data.T @ data` again, not a JAX operation (the catalogue has no code for a mislabelled baseline), and the Python loop is a deliberate baseline over NumPy scalars, not JAX work (no LB114). Code: the file as stored at commit a60497f, unchanged (a final newline added).
# static: LB102, LB104, LB115
# dynamic: n/a
# inferred: LB102 (the helper stops the clock before the result is read; not discussed), LB104 (one call per figure; not discussed), LB115 (a NumPy array handed to the jitted `mm` in the timed call; not discussed)
# lines: LB102:17, LB104:17, LB115:41

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
