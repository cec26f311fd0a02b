# source: https://github.com/jax-ml/jax/issues/5227
# title: Jax convolution significantly slower than scipy
# established-by: maintainer shoyer
# cause: The maintainer's two profiling tricks both apply to the posted %timeit: the result is not waited for (block_until_ready), and the computation is not jitted and called once before timing, so compilation falls inside the timing. With both fixed JAX was still about 200x slower: SciPy chooses between direct and FFT convolution while jax.scipy.signal.convolve convolves directly, a cause the catalogue has no code for.
# static: LB102, LB103, LB115
# dynamic: n/a
# inferred: LB115 (the NumPy array x is copied to the device in every timed call; the thread did not discuss it)
# lines: LB102:22, LB103:22, LB115:22
# first-sight: 7299de2 2026-12-02 py: found LB102:22 LB115:22; missed LB103:22; false LB113:15 | notebook: found LB102:22 LB115:22; missed LB103:22; false LB113:15

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
