# source: https://github.com/probml/probml-notebooks/blob/10620827a18c350662f19e3e3ba7c30e4db8584b/notebooks/jax_intro.ipynb
# title: probml-notebooks' 'Yet another JAX tutorial' (Kevin Murphy, September 2021), section 'Hardware accelerators / GPUs': a 1000x1000 float32 `x @ x.T` timed with `%timeit -o -n 100` in NumPy, jitted for CPU and jitted for GPU, each best-of figure kept from `_.best` and printed as speedups (JAX CPU 25.7 ms against NumPy 16.4 ms, 'speedup 0.638'; JAX GPU 485 us, 'speedup 33.8'), then NumPy against eager `jf` on a `device_put` array (14.8 ms against 452 us)
# established-by: maintainer murphyk (the notebook's author; its markdown reads the stored figures: 'JAX GPU is much faster than Numpy CPU. However we also see that JAX CPU is slower than Numpy CPU - this can happen with simple functions')
# cause: Two of the four JAX timings never wait for their result: `%timeit ... f_cpu()` (LB102; on the CPU backend the dispatch also returns before the matmul finishes, so the 25.7 ms is whatever part of the run completes before the next call queues behind it) and `%timeit ... jf(x)`, the eager function on the device array (LB102; its 452 us against the blocked jitted 485 us above is the queue, not the computation: the two run the same matmul on the same GPU). The GPU timing waits with `.block_until_ready()`, as the markdown above it says it should ('We added that block_until_ready because JAX uses asynchronous execution by default'); the CPU one was left without it. Not labelled: `-n 100` turns off `%timeit`'s calibration, so each jitted function's first call (its compile) is in the first of the five repeats, but the notebook keeps `res.best`, the best of five, which leaves it out (148's reading of a best-of figure; the stored 'The slowest run took 40.61 times longer than the fastest' is that first repeat); the inputs are built inside the timed functions or put on the device first (no LB115); the NumPy timings are NumPy's (nothing to report). Code: the notebook's setup cells and its 'GPUs' timing cells at commit 1062082, unchanged; the markdown, `!nvidia-smi`, the device listing and everything after the GPU section (TPU setup, vmap, grad and the rest of a 187,000-character notebook) are left out.
# static: LB102
# dynamic: n/a
# inferred: LB102 at both lines (the jitted CPU call and the eager call are never waited for; the author added the wait to the GPU timing only and did not discuss the others)
# lines: LB102:79/111
# first-sight: d481e6f 2026-12-06 py: found LB102:79 LB102:111; missed none; false LB110:53 LB103:79 LB103:89 | notebook: found LB102:79 LB102:111; missed none; false LB110:53 LB103:79 LB103:89

# %%
# Standard Python libraries
from __future__ import absolute_import, division, print_function, unicode_literals

from functools import partial
import os
import time
import numpy as np
np.set_printoptions(precision=3)
import glob
import matplotlib.pyplot as plt
import PIL
import imageio

from typing import Tuple, NamedTuple

from IPython import display
%matplotlib inline

import sklearn

# %%
import jax
import jax.numpy as jnp

from jax import random, vmap, jit, grad, value_and_grad, hessian, jacfwd, jacrev
print("jax version {}".format(jax.__version__))
# Check the jax backend
print("jax backend {}".format(jax.lib.xla_bridge.get_backend().platform))
key = random.PRNGKey(0)

# %%
# Parameters for the experiment
size = int(1e3)
number_of_loops=int(1e2)

# %%
# Standard numpy CPU

def f(x=None):
  if not isinstance(x, np.ndarray):
    x=np.ones((size, size), dtype=np.float32) 
  return np.dot(x, x.T)

# %%
%timeit -o -n $number_of_loops f()

# %%
res = _ # get result of last cell
time_cpu = res.best
print(time_cpu)

# %%
# JAX device execution
# https://github.com/google/jax/issues/1598

def jf(x=None): 
  if not isinstance(x, jnp.ndarray):
    x=jnp.ones((size, size), dtype=jnp.float32)
  return jnp.dot(x, x.T)


f_gpu = jit(jf, backend='gpu')
f_cpu = jit(jf, backend='cpu')

# %%
# Time the CPU version

%timeit -o -n $number_of_loops f_cpu() 

# %%
res = _
time_jcpu = res.best
print(time_jcpu)

# %%
# Time the GPU version

%timeit -o -n $number_of_loops f_gpu().block_until_ready() 

# %%
res = _
time_jgpu = res.best
print(time_jgpu)

# %%
print('JAX CPU time {:0.6f}, Numpy CPU time {:0.6f}, speedup {:0.6f}'.format(
    time_jcpu, time_cpu, time_cpu/time_jcpu))
print('JAX GPU time {:0.6f}, Numpy CPU time {:0.6f}, speedup {:0.6f}'.format(
    time_jgpu, time_cpu, time_cpu/time_jgpu))

# %%
from jax import device_put

x = np.ones((size, size)).astype(np.float32)
print(type(x))
%timeit -o -n $number_of_loops f(x)

x = device_put(x)
print(type(x))
%timeit -o -n $number_of_loops jf(x)
