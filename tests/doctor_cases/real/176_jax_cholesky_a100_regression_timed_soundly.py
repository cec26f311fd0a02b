# source: https://github.com/jax-ml/jax/issues/14002
# title: `jax[cuda]=0.4.1` version is slower on A100 GPU
# established-by: maintainer rajasekharporeddy (re-ran the reproducer on A100, V100 and P100 with JAX 0.5.0: about 2.6 ms on A100, the slowdown gone; the commenter who saw it on V100/A100 verified, and the issue was closed on it)
# cause: A slowdown of the GPU Cholesky path in jaxlib 0.4.1 (A100: 11.4 ms against 3.4 ms with 0.3.25), gone in later releases: a library regression, not a measurement fault. The measurement is sound in kind: one blocked warm-up call, then ten samples, each waited for with `block_until_ready`, reported as mean and standard deviation. `time()` (time.time) reads the clock at both ends. `f` is not jitted, so its four operations are dispatched one by one on 1000 x 1000 matrices (negligible next to the Cholesky) and `x1[:, :, i]` takes a new Python int every sample: neither was discussed, neither is labelled. Code: the reproducer as posted.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time()` is time.time, a wall clock, as the interval timer; not discussed)
# lines: LB105:33
# first-sight: d3e47a7 2026-12-03 py: found LB105:33; missed none; false none | notebook: found LB105:33; missed none; false none

import os
os.environ["CUDA_VISIBLE_DEVICES"] = "0"

import jax
import jax.numpy as jnp
from time import time

key = jax.random.PRNGKey(0)
x1 = jax.random.normal(key, shape=(1000, 1000, 11))
key = jax.random.PRNGKey(1)
x2 = jax.random.normal(key, shape=(1000, 1000, 11))

def f(x1, x2, i):
    a = x1[:, : ,i] @ x2[:, : ,i]
    a = a@a.T
    b = jnp.linalg.cholesky(a)
    return b.mean()

f(x1, x2, 10).block_until_ready() # Warmup

times = jnp.ones(10)
for i in range(10):
    init = time()
    f(x1, x2, i).block_until_ready()
    end = time() - init
    times = times.at[i].set(end)

print(f"Mean: {times.mean()}, Std: {times.std()}")
