# source: https://github.com/GeophyAI/seistorch/blob/98c93be697b14bd4923eef3fedaefd4e2d5b1727/examples/advances/minifwi/inplace_ops.py
# title: seistorch example `inplace_ops.py`: 100 in-place (`x.at[0, 0].set(0)`) or out-of-place updates in a Python loop, jitted in JAX and eager in PyTorch, timed with `timeit.timeit(number=10)`
# established-by: maintainer GeophyAI (the repository's example comparing in-place and out-of-place array updates in JAX and PyTorch)
# cause: The timing is sound in form: each JAX function is jitted, called once and waited for before `timeit`, every timed JAX call waits with `.block_until_ready()`, and PyTorch runs eagerly on the CPU (`.cuda()` is commented out), which needs no synchronize. What the JAX figures time is a program the loop wrote: `inplace_fn_jax` and `noinplace_fn_jax` run `for _ in range(100)` inside `jax.jit`, so tracing unrolls 100 copies of the body (with its `.at[0, 0].set` scatter) into one program whose compile grows with the loop, the catalogue's Python loop under jit (the reading of cases 056 and 217). The warm-up call keeps that compile out of the figures, which therefore compare one fused 100-step program against 100 eager PyTorch steps. The second 'PyTorch' timing calls `noinplace_fn_jax` on the torch tensor, the undecorated Python function, which runs PyTorch operations eagerly (no code for that). Code: the file as stored (commit 98c93be).
# static: LB106
# dynamic: n/a
# inferred: LB106 (both jitted functions run a 100-step Python loop under `jax.jit`; the file does not discuss it, and cases 056 and 217 read the same shape so)
# lines: LB106:18/46
# first-sight: 12e883c 2026-12-06 py: found LB106:18 LB106:46; missed none; false none | notebook: found LB106:18 LB106:46; missed none; false none

import jax
import jax.numpy as jnp
import numpy as np
import torch
import timeit

def inplace_fn_jax(x):
    for _ in range(100):
        x = x + x * x + x * x * x
        x = x.at[0, 0].set(0)
    return x

def inplace_fn_torch(x):
    for _ in range(100):
        x = x + x * x + x * x * x
        x[0, 0] = 0
    return x
    
y = np.random.randn(1000, 1000).astype(dtype='float32')
y_torch = torch.tensor(y)#.cuda()
y_jax = jnp.array(y)

jax_fn = jax.jit(inplace_fn_jax)
jax_fn(y_jax).block_until_ready()

print("With inplace operations:")

tt = timeit.timeit(lambda: inplace_fn_torch(y_torch), number=10)
print(f"PyTorch: {tt * 1000} msec")

t = timeit.timeit(lambda: jax_fn(y_jax).block_until_ready(), number=10)
print(f"JAX: {t * 1000} msec")


def noinplace_fn_jax(x):
    for _ in range(100):
        x = x + x * x + x * x * x
    return x


jax_fn = jax.jit(noinplace_fn_jax)
jax_fn(y_jax).block_until_ready()

print("Without inplace operations:")

tt = timeit.timeit(lambda: noinplace_fn_jax(y_torch), number=10)
print(f"PyTorch: {tt * 1000} msec")

t = timeit.timeit(lambda: jax_fn(y_jax).block_until_ready(), number=10)
print(f"JAX: {t * 1000} msec")
