# source: https://github.com/jax-ml/jax/issues/5227
# title: Jax convolution significantly slower than scipy
# established-by: maintainer shoyer
# cause: (Entered first as case 088 and retired: its LB103 did not hold. The maintainer gave the two profiling tricks, wait with block_until_ready and jit then call once before timing, and then said 'none of these tricks mattered in this case'; the posted figure reads '7 runs, 10 loops each', so IPython's `%timeit` calibrated with untimed runs first and the first call's compilation fell outside the reported time. Its first-sight line is 088's, scored by the doctor that first saw it (7299de2): 088's recorded findings, LB102:22, LB115:22 and LB113:15, counted again against these labels, and `benchmarks/first_sight.py` run from a checkout of 7299de2 on 2026-12-03 gave the same findings; the date is 088's.) JAX was still about 200x slower than SciPy with both tricks applied: SciPy chooses between direct and FFT convolution while jax.scipy.signal.convolve convolves directly, a cause the catalogue has no code for. The timed call's result is not waited for (the maintainer's first trick), and `x` is a NumPy float64 array copied to the device inside every timed call. `import jax.config` fails on current JAX (no module `jax.config`). Code: the issue's snippet as posted.
# static: LB102, LB115, LB113
# dynamic: n/a
# inferred: LB115 (the NumPy array x is copied to the device in every timed call; the thread did not discuss it), LB113 (`import jax.config` raises ModuleNotFoundError on current JAX, 0.10.2 here, as `from jax.config import config` in case 167; not discussed)
# lines: LB102:22, LB115:22, LB113:15
# first-sight: 7299de2 2026-12-02 py: found LB113:15 LB102:22 LB115:22; missed none; false none | notebook: found LB113:15 LB102:22 LB115:22; missed none; false none

import numpy as np
import jax.scipy.signal
import scipy.signal

import jax.config
jax.config.update("jax_enable_x64", True)
jax.config.update('jax_platform_name', 'cpu')

np.random.seed(1)
x  = np.random.rand(300,300)

%timeit jax.scipy.signal.convolve(x,x,mode='same')

%timeit scipy.signal.convolve(x,x,mode='same')
