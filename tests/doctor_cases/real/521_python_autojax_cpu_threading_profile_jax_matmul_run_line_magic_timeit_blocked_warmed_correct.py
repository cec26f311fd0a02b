# source: https://github.com/ickc/python-autojax/blob/88b44b1dfcedcd719c79988ae718d6c3156c7dab/experiments/cpu_threading/profile_jax_matmul.py
# title: python-autojax's `experiments/cpu_threading/profile_jax_matmul.py` (the same talk's CPU-threading experiment, beside `profile_numpy_matmul.py`): a jitted float64 matmul of two operands made by jitted generators with static shapes, called once, then timed with `%timeit` of `f(A, B).block_until_ready()` written as `get_ipython().run_line_magic(...)`
# established-by: maintainer ickc (the repository author's experiment for the talk; no issue discusses its timing)
# cause: Correct for what the catalogue checks. The timed statement ends in `.block_until_ready()`, so every `%timeit` loop waits for the product (no LB102); `f` is called once untimed just before, and `%timeit` without `-n` calibrates before it samples (no LB103); the operands are JAX arrays produced by `gen_A` and `gen_B` before the timing (no LB115), each generator jitted once by its decorator with its shape arguments static (no LB111, and no recompilation inside the timing); float64 is asked for with `jax_enable_x64` set at import (no LB108). The untimed warm call `C = f(A, B)` is not waited for; its queued run can only spill into `%timeit`'s calibration, which is not reported (noted, not labelled, as case 374's spilling warm-up). The NumPy twin is another file, so no SYRK comparison is in sight (no LB110). A correct doctor stays quiet. Code: the file as stored at commit 88b44b1, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: df1cd3d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

from __future__ import annotations

import sys
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)


@jax.jit
def f(
    A: np.ndarray[tuple[int, int], np.float64],
    B: np.ndarray[tuple[int, int], np.float64],
) -> np.ndarray[tuple[int, int], np.float64]:
    return A @ B


@partial(jax.jit, static_argnames=("M", "N"))
def gen_A(M: int, N: int) -> np.ndarray[tuple[int, int], np.float64]:
    return jnp.reciprocal(jnp.arange(1, M * N + 1, dtype=jnp.float64).reshape(M, N))


@partial(jax.jit, static_argnames=("N", "K"))
def gen_B(N: int, K: int) -> np.ndarray[tuple[int, int], np.float64]:
    return jnp.arange(1, N * K + 1, dtype=jnp.float64).reshape(N, K)


def run(
    M: int = 64,
    N: int = 64,
    K: int = 64,
):
    A = gen_A(M, N)
    B = gen_B(N, K)
    C = f(A, B)
    get_ipython().run_line_magic("timeit", "f(A, B).block_until_ready()")


def main() -> None:
    if len(sys.argv) != 4:
        print(f"Usage: {sys.argv[0]} M N K", file=sys.stderr)
        print(sys.argv)
        sys.exit(1)
    run(int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3]))


if __name__ == "__main__":
    main()
