# source: https://github.com/ev-br/bench_playground/commits/main/matmul_bench.py
# title: bench_playground `matmul_bench.py`, first version: pytest-benchmark of `xp.matmul(a, a)` parametrized over NumPy, PyTorch and `jax.numpy`, with no synchronization and JAX in float32
# established-by: maintainer ev-br (the file's later versions: `func = utils.wrap_function(run_matmul, xp)` under '# use xp-specific synchronization', whose JAX branch calls `jax.block_until_ready` on the result, and `utils.configure_backend(xp, device=device)    # use f64 etc`, which sets `jax_enable_x64` for JAX and float64 as PyTorch's default dtype)
# cause: The first version hands `run_matmul` straight to pytest-benchmark for each backend. For `jax.numpy` the timed call returns before the product is computed, so the JAX figure is dispatch; and `xp.asarray(a)` turns the float64 NumPy matrix into float32, x64 being off, while NumPy and PyTorch (`torch.asarray` keeps float64) multiply in float64, so the three figures are of different precisions. The author's later versions fix both: a wrapper that waits with `jax.block_until_ready` (and `torch.cuda.synchronize` on CUDA), and `configure_backend`, which enables x64 for JAX. PyTorch runs on the CPU in this version and needs no synchronize; the comment says pytest-benchmark's warm-up moved to pytest.ini, so the first compile is not in the rounds. Code: the file's first stored version, before it imported `utils`, as posted; the stored copy names no commit, so the source is the file's history.
# static: LB102, LB108
# dynamic: n/a
# inferred: none
# lines: LB102:31, LB108:29
# first-sight: 12e883c 2026-12-06 py: found none; missed LB102:31, LB108:29; false none | notebook: found none; missed LB102:31, LB108:29; false none

import pytest
import numpy as np
import jax.numpy as jnp
import torch

import time

def run_matmul(a, xp):
    res = xp.matmul(a, a)
    return res


#@pytest.mark.benchmark(warmup=True, warmup_iterations=100, disable_gc=True) -- moved to pytest.ini
@pytest.mark.parametrize('xp', [np, torch, jnp]) #, jnp, torch])
def test_matmul(benchmark, xp):

    rng = np.random.default_rng(123)
    a = rng.uniform(size=(100, 100))
    aa = xp.asarray(a)

    result = benchmark(run_matmul, aa, xp)
