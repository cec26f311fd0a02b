"""JAX vs NumPy vs PyTorch matmul timed by hand, correctly: warm-up, blocking, many samples, same work."""

import statistics
import time

import jax
import jax.numpy as jnp
import numpy as np
import torch

jax.config.update("jax_enable_x64", True)  # so float64 below really is float64 on the JAX side

n = 256
rng = np.random.default_rng(0)
a = rng.standard_normal((n, n))
b = rng.normal(size=(n, n))  # a distinct operand: a general product on every side

a_jax, b_jax = jax.device_put(a), jax.device_put(b)
a_torch, b_torch = torch.from_numpy(a), torch.from_numpy(b)
matmul = jax.jit(jnp.matmul)
x64 = jnp.ones((4, 4), dtype=jnp.float64)


def median_seconds(run, repeats=20):
    run()  # warm-up: compiles, fills caches
    samples = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        samples.append(time.perf_counter() - start)
    return statistics.median(samples)


jax_s = median_seconds(lambda: matmul(a_jax, b_jax).block_until_ready())
numpy_s = median_seconds(lambda: a @ b.T)
with torch.inference_mode():
    torch_s = median_seconds(lambda: torch.mm(a_torch, b_torch))

matmul(a_jax, b_jax).block_until_ready()
start = time.perf_counter()
for _ in range(10):
    out = matmul(a_jax, b_jax)
out.block_until_ready()
loop_s = (time.perf_counter() - start) / 10

print(f"jax {jax_s * 1e3:.3f} ms, numpy {numpy_s * 1e3:.3f} ms, torch {torch_s * 1e3:.3f} ms, loop {loop_s * 1e3:.3f} ms")
