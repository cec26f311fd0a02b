"""One dense kernel, the same shapes and dtype, in JAX, NumPy and PyTorch: builders for isolated workers.

The kernel probe (`probes/kernels.py`) names these as ``"levelbench._probing.kernels:numpy_matmul"``
and so on; `compare(..., isolate=True)` calls each in a worker process of its own, so no framework's
thread pool shares a process with another's (docs/design/isolation.md). Every builder makes the same
inputs from the same seed, so compare's agreement check proves the three do the same work.

A ``dot_general`` is timed in its canonical form: ``(batch, m, k) @ (batch, k, n)`` (no batch
dimension when ``batch`` is 1), the layout all three libraries hand to their GEMM.
"""

from __future__ import annotations

from typing import Any

import numpy as np
from .._measuring.candidate import Candidate


def _inputs(batch: int, m: int, k: int, n: int, dtype: str, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    lead = (batch,) if batch > 1 else ()
    a = rng.standard_normal((*lead, m, k)).astype(dtype)
    b = rng.standard_normal((*lead, k, n)).astype(dtype)
    return a, b


def flops(batch: int, m: int, k: int, n: int) -> float:
    return 2.0 * batch * m * k * n


def numpy_matmul(batch: int, m: int, k: int, n: int, dtype: str) -> Any:
    a, b = _inputs(batch, m, k, n, dtype)
    return Candidate(np.matmul, (a, b), flops=flops(batch, m, k, n), note="NumPy matmul (its BLAS)")


def torch_matmul(batch: int, m: int, k: int, n: int, dtype: str) -> Any:
    import torch  # only in its own worker: never next to JAX's or NumPy's threads


    a, b = _inputs(batch, m, k, n, dtype)
    return Candidate(torch.matmul, (torch.from_numpy(a), torch.from_numpy(b)), flops=flops(batch, m, k, n),
                     note="torch.matmul")


def jax_matmul(batch: int, m: int, k: int, n: int, dtype: str) -> Any:
    import jax  # only in its own worker

    if np.dtype(dtype).itemsize == 8:
        jax.config.update("jax_enable_x64", True)  # this worker only: without it float64 is float32
    import jax.numpy as jnp


    a, b = _inputs(batch, m, k, n, dtype)
    return Candidate(jax.jit(jnp.matmul), (jax.device_put(a), jax.device_put(b)), flops=flops(batch, m, k, n),
                     note="jax.jit(jnp.matmul), XLA's CPU dot")
