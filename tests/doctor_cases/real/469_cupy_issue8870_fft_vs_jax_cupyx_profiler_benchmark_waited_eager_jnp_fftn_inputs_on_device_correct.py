# source: https://github.com/cupy/cupy/issues/8870
# title: cupy/cupy#8870 ('FFT performance bug (cupy 5x slower than jax)'): `jnp.fft.fftn` and `cp.fft.fftn` over the first two axes of a (512, 512, 16) complex64 array, each timed with `cupyx.profiler.benchmark(..., max_duration=2)` after a correctness check, the JAX function waiting with `.block_until_ready()`
# established-by: answer by homurachan (reran the script on an 8x RTX 6000 Ada server and an 8x RTX A6000 server: CuPy's GPU time 284 us against JAX's 244 us on the first, 1302 us against 532 us on the second, so the gap follows the card; the maintainers labelled the issue cat:bug, a CuPy FFT matter)
# cause: Correct for what the catalogue checks; the gap the thread discusses is CuPy's FFT on some GPUs, not the measurement. `cupyx.profiler.benchmark` warms each function up (ten runs by default) and then repeats it for `max_duration=2` seconds, reading CPU time and GPU time with CUDA events and printing mean, spread, min and max for each; `fft_jax` waits for its result inside the timed function (no LB102); both inputs are put on the device before anything is timed (`jnp.array(a)`, `cp.asarray(a)`; no LB115); the eager `jnp.fft.fftn` compiles on its first call at this shape, which the correctness check `fft_jax(a_jax)` and the harness's warm-up both make before the samples (no LB103); it is one operation per call, not an eager loop (no LB114). A correct doctor stays quiet. Code: the script, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: e4a92af 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import cupy as cp
import jax.numpy as jnp
import numpy as np
from cupyx.profiler import benchmark

shape = 512, 512, 16

a = (np.random.random(shape) + 1j*np.random.random(shape)).astype(np.complex64)
a_jax = jnp.array(a)
a_cp = cp.asarray(a)

assert a_jax.device.id == 0
assert a_cp.device.id == 0

def fft_jax(a):
    return jnp.fft.fftn(a, axes=(0, 1)).block_until_ready()

def fft_cp(a):
    return cp.fft.fftn(a, axes=(0, 1))

# Test that all numpy, jax and cupy compute the same fft
ref = np.fft.fftn(a, axes=(0, 1))
res_jax = fft_jax(a_jax)
res_cp = fft_cp(a_cp)
np.testing.assert_allclose(ref, np.array(res_jax), rtol=1e-2)
np.testing.assert_allclose(ref, cp.asnumpy(res_cp), rtol=1e-2)

# Profiling
print(benchmark(fft_jax, (a_jax,), name="jax", max_duration=2))
print(benchmark(fft_cp, (a_cp,), name="cupy", max_duration=2))
