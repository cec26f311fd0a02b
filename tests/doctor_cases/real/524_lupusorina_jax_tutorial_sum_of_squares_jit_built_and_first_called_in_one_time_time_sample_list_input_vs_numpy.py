# source: https://github.com/lupusorina/jax_tutorial/blob/41b3d0afb90e0c7fac633d51f54542914c329a3d/example_jax_sum_of_squares.py
# title: lupusorina's jax_tutorial `example_jax_sum_of_squares.py`: a JAX-versus-NumPy sum of squares, the JAX side one `time.time()` pair around `jit(sum_squares)` and its first call on `jnp.array([1, 2, 3, 4])`, the NumPy side one pair around `np.sum` of a four-element array, both printed as 'Time taken'
# established-by: maintainer lupusorina (the tutorial repository's own example; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The JAX figure is one sample (LB104, at the first statement inside the clock pair, `sum_squares_jit = jit(sum_squares)`, the corpus's placement since cases 289-291) of a first call of the freshly jitted function, so it is mostly trace and compile (LB103 at the call; nothing in the file says the compile is what it measures: the figure is printed as 'JAX Time taken' beside 'NP Time taken'); the clock is read before anything waits for `result` (LB102 at the call); and the input is built from a Python list by `jnp.array` inside the timing, a host-to-device copy in the timed region (LB115 at the call, case 078's reading of `jnp.array` of a list under the clock). The NumPy figure is one sample too (LB104 at `result = sum_squares_np(...)`, the catalogue's own `np.dot` example). Both intervals use `time.time()` (LB105 at the two start reads). The `jit(...)` wrapper is built once inside the first pair, not in a loop or a repeated statement (no LB111). Code: the file as stored at commit 41b3d0a, unchanged.
# static: LB102, LB103, LB104, LB105, LB115
# dynamic: n/a
# inferred: LB102 (the jitted result is never waited for; not discussed), LB103 (the first call of the jitted function is timed; not discussed), LB104 (each figure is one sample; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB115 (`jnp.array` of a Python list inside the timing; not discussed)
# lines: LB102:24, LB103:24, LB104:21/35, LB105:19/34, LB115:24
# first-sight: df1cd3d 2026-12-06 py: found LB105:19 LB115:24 LB105:34 LB104:35; missed LB102:24, LB103:24; false none | notebook: found LB105:19 LB115:24 LB105:34 LB104:35; missed LB102:24, LB103:24; false none

from jax import jit
import jax.numpy as jnp
import time

# Define a simple function
def sum_squares(x):
    return jnp.sum(x ** 2)

time_1 = time.time()
# JIT compile the function
sum_squares_jit = jit(sum_squares)

# Call the JIT compiled function
result = sum_squares_jit(jnp.array([1, 2, 3, 4]))

print("JAX Time taken:{} seconds".format(time.time() - time_1))

# Numpy equivalent
import numpy as np

def sum_squares_np(x):
    return np.sum(x ** 2)

time_1 = time.time()
result = sum_squares_np(np.array([1, 2, 3, 4]))

print("NP Time taken:{} seconds".format(time.time() - time_1))
