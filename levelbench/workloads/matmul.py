"""The dot question (seed 002): ``jnp.dot`` on a 3000x3000 matrix against ``np.dot``, done fairly.

Every candidate receives the same two matrices ``x`` and ``y``. The full GEMM candidates compute
``x @ y`` (2 n^3 FLOPs). The question compared ``x @ x.T``, for which NumPy's BLAS takes the SYRK
path (a symmetric rank-k update: it computes one triangle, n^3 FLOPs) while XLA does a full GEMM
after materialising the transpose; those candidates are kept, labelled, in their own group.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from .._measuring.candidate import Candidate
from ._base import Param, Workload


def build(n: int, dtype: str, seed: int) -> dict[str, Candidate]:
    import jax  # the workload is about JAX: imported when it runs, not when listed

    if dtype == "float64":
        # Without this JAX silently computes in float32; the run says so in its notes.
        jax.config.update("jax_enable_x64", True)
    import jax.numpy as jnp
    import torch

    rng = np.random.default_rng(seed)
    x = rng.standard_normal((n, n)).astype(dtype)
    y = rng.standard_normal((n, n)).astype(dtype)
    jx, jy = jax.device_put(x), jax.device_put(y)
    tx, ty = torch.from_numpy(x), torch.from_numpy(y)
    gemm, syrk = 2.0 * n**3, float(n) ** 2 * (n + 1)

    def numpy_syrk(x: np.ndarray, y: np.ndarray) -> np.ndarray:
        return np.dot(x, x.T)

    def jax_eager_xxT(x: Any, y: Any) -> Any:
        return jnp.dot(x, x.T)

    x64 = "; jax_enable_x64 on" if dtype == "float64" else ""
    return {
        "numpy dot(x, y)": Candidate(np.dot, (x, y), flops=gemm, group="x @ y", note="full GEMM, OpenBLAS"),
        "jax jit dot(x, y)": Candidate(jax.jit(jnp.dot), (jx, jy), group="x @ y", note="full GEMM, XLA" + x64),
        "torch mm(x, y)": Candidate(torch.mm, (tx, ty), group="x @ y", note="full GEMM"),
        "numpy dot(x, x.T)": Candidate(numpy_syrk, (x, y), flops=syrk, group="x @ x.T",
                                       note="the question's form: BLAS SYRK, half the FLOPs"),
        "jax eager dot(x, x.T)": Candidate(jax_eager_xxT, (jx, jy), flops=gemm, group="x @ x.T",
                                           note="the question's form: not jitted, transpose materialised" + x64),
    }


MATMUL = Workload(
    name="matmul",
    description="the dot question: jnp.dot vs np.dot vs torch.mm, full GEMM and the question's x @ x.T",
    build=build,
    params=[
        Param("n", 1000, int, "matrix size (n x n)", min=1, max=1_000_000),
        Param("dtype", "float32", str, "element type", choices=("float32", "float64")),
    ],
    full={"n": 3000},
    baseline="numpy dot(x, y)",
    # x and y, their copies in JAX (torch shares NumPy's), and one n x n result per candidate
    footprint=lambda n, dtype, seed: 9 * n * n * np.dtype(dtype).itemsize,
)
