# source: https://sineeli.github.io/2025/12/20/jax-series-1
# title: sineeli's blog post '01 JAX Basics - Framework Benchmarks & JIT Compilation' (2025-12-20): a 3000x3000 matmul timed in JAX, TensorFlow and PyTorch on CPU, GPU and TPU with `%time`/`%timeit`, then `%timeit` of an eager `selu` against `jax.jit(selu)(x_jnp)`
# established-by: maintainer sineeli (the post's author, on his own Hexo blog, read whole from its source `source/_posts/jax-series-1.md` in sineeli/sineeli.github.io at 031a2d1; no comment or reply discusses its timing)
# cause: The post compares JAX with TensorFlow and PyTorch and shows jit's gain ('15.2 ms' eager `selu` against '1.85 ms' jitted) from notebook cells. What a correct doctor reports, by the catalogue and the corpus's readings: the first JAX cell, `%time jax.numpy.dot(x_jnp, x_jnp.T)` under `jax.default_device`, returns the unwaited JAX array (the comment says the value comes 'later'), so its 'Wall time' is dispatch plus whatever the queue let through (LB102, the reading of 076 and 087 for `%time` of a JAX value; `%time` is not LB104); on GPU and TPU the dot is timed as `np.array(jax.numpy.dot(...).block_until_ready())`, a 36 MB device-to-host copy inside every timed run, which the post does on purpose ('By calling .numpy() (TF/JAX) ... you force the resulting tensor to be copied ... back to CPU RAM') and whose cost its own TPU figures show, 8.45 ms with the copy against 2.12 ms for a result left on the device (LB115 at both lines, 285's reading of `np.asarray` of a result inside the timed run; not 243's copy timed alone on purpose, since what the cells compare is the matmul and the copy is only the post's way of waiting); and `%timeit jax.jit(selu)(x_jnp).block_until_ready()` wraps `selu` in `jax.jit` inside the repeated timed statement, a wrapper built and a cache lookup paid on every run (LB111, the catalogue's `jax.jit(...)(...)` in a repeated timed statement). Not labelled: the `%timeit` of an eager `selu` is the deliberate baseline (no loop, no LB114); the CPU `%timeit ... .block_until_ready()` cell and the `%timeit` without `-n` of the jitted call are sound; TensorFlow's `.numpy()` and PyTorch's `.cpu()` copies are the same choice on the other frameworks, noted, not labelled, the catalogue's LB115 being about JAX results; `jax_dot` in the last TPU cell is never defined in the post (a NameError as posted), noted. Trimmed: the PRNG-key cells before the benchmark and the tracing, jaxpr and 'JIT Pitfalls' cells after it, which time nothing; the output blocks are left out; each fenced code block is one `# %%` cell.
# static: LB102, LB111, LB115
# dynamic: n/a
# inferred: LB102 (`%time` of an unwaited `jnp.dot`; not discussed), LB111 (`jax.jit(selu)` rebuilt inside the repeated `%timeit` statement; not discussed), LB115 (`np.array(...)` of the result inside every timed run; the post chose it, its figures show its cost, no reader discusses it)
# lines: LB102:53, LB111:110, LB115:74/97
# first-sight: fb4008d 2026-12-06 py: found LB102:53 LB115:74 LB115:97 LB111:110; missed none; false LB115:80 | notebook: found LB102:53 LB115:74 LB115:97 LB111:110; missed none; false LB115:80

# %%
import torch
import tensorflow as tf
import jax
import numpy as np

# %%
size = 3000

# %%
import os

# avoids pre allocatin the GPU memory
os.environ['XLA_PYTHON_CLIENT_PREALLOCATE'] = 'false'

# avoids pre allocatin the GPU memory
gpus = tf.config.list_physical_devices('GPU')
if gpus:
  tf.config.experimental.set_memory_growth(gpus[0], True)

# %%
key = jax.random.key(42)

# lets put jax array in CPU because if we are using GPU it places array direclty in GPU
cpus = jax.devices("cpu")
with jax.default_device(cpus[0]):
    # This is created directly in RAM, GPU is never touched
    x_jnp = jax.random.normal(key, (size, size))

# same case with Tensorflow we need to mention where to place the data
with tf.device('/CPU:0'):
  x_tf = tf.random.normal((size, size))


# torch doesn't do until you explicityly move to cuda device.
x_torch = torch.randn(size, size)

# %%
x_jnp.device, x_tf.device, x_torch.device

# %%
with jax.default_device(cpus[0]):
  %time jax.numpy.dot(x_jnp, x_jnp.T) # this will show compilation time and then you can see the return value later

# %%
# and lets the Python thread continue. The actual computation happens in the background on the accelerator.
with jax.default_device(cpus[0]):
  %timeit jax.numpy.dot(x_jnp, x_jnp.T).block_until_ready() # this will wait till the execution also completes

# %%
with tf.device('/CPU:0'):
  %timeit tf.matmul(x_tf, x_tf) # here that is the not the case it executes eagerly

# %%
%timeit torch.matmul(x_torch, x_torch) # here that is the not the case it executes eagerly

# %%
x_jnp = jax.random.normal(key, (size, size)) # sits in GPU by default
x_tf = tf.random.normal((size, size)) # sits in GPU by default
if torch.cuda.is_available():
  x_torch = torch.randn(size, size).cuda() # sits in GPU

# %%
%timeit np.array(jax.numpy.dot(x_jnp, x_jnp.T).block_until_ready())

# %%
%timeit tf.matmul(x_tf, x_tf).numpy()

# %%
%timeit torch.matmul(x_torch, x_torch).cpu()

# %%
import jax
import numpy as np

# %%
jax.devices()

# %%
key = jax.random.key(42)
size = 3000

# %%
x_jnp = jax.random.normal(key, (size, size)) # sits in TPU by default

# %%
%timeit np.array(jax.numpy.dot(x_jnp, x_jnp.T).block_until_ready()) # matrix is in on CPU

# %%
%timeit jax_dot(x_jnp).block_until_ready().device # the result is also in TPU

# %%
def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jax.numpy.where(x > 0, x, alpha * jax.numpy.exp(x) - alpha)

# %%
%timeit selu(x_jnp).block_until_ready()

# %%
%timeit jax.jit(selu)(x_jnp).block_until_ready() # JIT(Just in Time Compilation)
