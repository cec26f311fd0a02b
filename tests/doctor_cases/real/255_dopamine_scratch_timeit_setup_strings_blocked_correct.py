# source: https://github.com/xqz-u/dopamine/blob/2432910c58e8737b29f9ecd14896912d5af9c975/dopamine/thesis/scratch/test_jax_gpu.py
# title: a thesis fork of dopamine, scratch GPU test: `timeit.timeit` of `jnp.dot(x, x.T).block_until_ready()` with a setup string, for a JAX-generated and a `device_put` NumPy matrix
# established-by: maintainer xqz-u (the repository's scratch benchmark, with the timings it recorded per machine)
# cause: Correct timing code. Both statements wait with `.block_until_ready()`; both matrices are made on the device in the setup string (`jrand.normal`, and `device_put` of a float32 NumPy matrix), which `timeit` runs outside the timing, so no host-to-device copy is timed; both are float32; and each figure is the total of 100 runs, in which the first-use compile of JAX's own `dot` is one run of a hundred (as case 197 reads JAX's own operations). Code: the file as stored (commit 2432910).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 12e883c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit

code = """
import numpy as np
from jax import device_put
from jax import numpy as jnp
from jax import random as jrand


key = jrand.PRNGKey(0)
size = 3000
x = jrand.normal(key, (size, size), dtype=jnp.float32)
y = np.random.normal(size=(size, size)).astype(np.float32)
y = device_put(y)
"""
# stern: 32.80970892100595
exec_time = timeit.timeit("jnp.dot(x, x.T).block_until_ready()", setup=code, number=100)
print(f"exec time: {exec_time}")

# stern: 32.76028992999636
exec_time = timeit.timeit("jnp.dot(y, y.T).block_until_ready()", setup=code, number=100)
print(f"exec time: {exec_time}")
