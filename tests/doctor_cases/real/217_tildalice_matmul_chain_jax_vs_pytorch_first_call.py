# source: https://tildalice.io/?p=869
# title: Why JAX Feels Faster Than PyTorch (and When It Isn't) (blog post, "The JIT Wall": a 100-step matmul chain timed once in PyTorch and once in JAX)
# established-by: answer by the post's author (the JAX figure comes from XLA "turning your Python loop into a single fused GPU kernel"; without `@jax.jit` the same JAX code is slower than PyTorch)
# cause: The post credits JAX's 3x lead (3.1 ms against 8.7 ms on an RTX 3090) to XLA compiling the whole Python loop into one program. By the post's own account the `for _ in range(100)` loop under `@jax.jit` is unrolled into the traced program, 100 copies of the matmul (the catalogue's loop under jit, whose compile grows with the loop). The measurement compares single samples: the JAX figure is the first call of the jitted function, so it holds tracing and compiling the 100-step program whatever the post's number says, and each side is one `perf_counter` sample; the PyTorch side synchronizes CUDA before the clock stops but takes its one sample cold. Code: the post's two code blocks as stored, one cell each.
# static: LB104, LB103, LB106
# dynamic: LB202
# inferred: LB103 (the timed JAX call is the jitted function's first call), LB104 (each framework's figure is one sample of one call), LB106 (the loop the post describes as turned into one program is a Python `for` under `@jax.jit`); the runnable copy's LB202 is the same block repeated 100 times in one trace, no input axis scaling it (as for cases 056 and 196)
# lines: LB104:21/38, LB103:38, LB106:32
# first-sight: eec90bb 2026-12-03 py: found LB106:32 LB104:38 LB103:38; missed none; false LB116:38 | notebook: found LB106:32 LB104:38 LB103:38; missed none; false LB116:38

import torch
import time

def matmul_chain(x):
    for _ in range(100):
        x = x @ x
    return x

x = torch.randn(512, 512, device='cuda')
start = time.perf_counter()
y = matmul_chain(x)
torch.cuda.synchronize()
print(f"PyTorch: {time.perf_counter() - start:.4f}s")

# %%
import jax
import jax.numpy as jnp
import time

@jax.jit
def matmul_chain(x):
    for _ in range(100):
        x = x @ x
    return x

x = jax.random.normal(jax.random.PRNGKey(0), (512, 512))
start = time.perf_counter()
y = matmul_chain(x).block_until_ready()
print(f"JAX: {time.perf_counter() - start:.4f}s")
