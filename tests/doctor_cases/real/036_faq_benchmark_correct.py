# source: https://docs.jax.dev/en/latest/benchmarking.html
# title: Benchmarking JAX code
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct benchmark: float32 on both sides, transfer and compilation timed separately on purpose, steady state timed with block_until_ready.
# static: none
# dynamic: none
# inferred: none
# lines: none

import numpy as np
import jax

def f(x):  # function we're benchmarking (works in both NumPy & JAX)
    return x.T @ (x - x.mean(axis=0))

x_np = np.ones((1000, 1000), dtype=np.float32)  # same as JAX default dtype
%timeit f(x_np)  # measure NumPy runtime

# measure JAX device transfer time
%time x_jax = jax.device_put(x_np).block_until_ready()

f_jit = jax.jit(f)
%time f_jit(x_jax).block_until_ready()  # measure JAX compilation time
%timeit f_jit(x_jax).block_until_ready()  # measure JAX runtime
