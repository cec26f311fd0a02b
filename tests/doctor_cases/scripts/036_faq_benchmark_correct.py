# case: real/036_faq_benchmark_correct.py
# form: ipython
# causes: none
# changed: 300x300 instead of 1000x1000
# note: the two %time lines time the transfer and the compilation on purpose, as their comments say; a correct doctor reports no finding on them

import numpy as np
import jax

def f(x):  # function we're benchmarking (works in both NumPy & JAX)
    return x.T @ (x - x.mean(axis=0))

x_np = np.ones((300, 300), dtype=np.float32)  # same as JAX default dtype
%timeit f(x_np)  # measure NumPy runtime

# measure JAX device transfer time
%time x_jax = jax.device_put(x_np).block_until_ready()

f_jit = jax.jit(f)
%time f_jit(x_jax).block_until_ready()  # measure JAX compilation time
%timeit f_jit(x_jax).block_until_ready()  # measure JAX runtime
