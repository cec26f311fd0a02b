# source: https://github.com/ickc/python-autojax/blob/3761c9bc1797fe9831087f8ca8c27fbcbafc2bd3/experiments/reduced_sum/profile_jax.py
# title: python-autojax's `experiments/reduced_sum/profile_jax.py`, one of the profiling experiments behind Kolen Cheung's talk 'JIT compilers for scientific computing in Python: Numba vs. JAX' (ickc.github.io/RSE/PyAutoLens, 2025-09-21): a jitted float64 outer-product-and-matvec reduction checked once against NumPy, then timed with `%timeit` written as `get_ipython().run_line_magic("timeit", "f(m, k1, k2)")`, nothing waited for; the same directory holds its Numba, `fori_loop`, `scan` and `vmap` twins
# established-by: maintainer ickc (the repository author's experiment for the talk; no issue discusses its timing)
# cause: The jitted `f` is called once before the timing inside `np.testing.assert_allclose`, which reads the result on the host, so the compile is outside the timed statement (and `%timeit` without `-n` calibrates before it samples: no LB103). The timed statement `f(m, k1, k2)` returns a JAX array that nothing waits for, so each `%timeit` loop measures the dispatch of the jitted call, not the reduction it queues, the figure the talk sets beside Numba's (LB102 at the `run_line_magic` line: the catalogue's own `%timeit f(x)` example, in the IPython-export form that case 401 reads as a `%timeit`). The inputs are JAX arrays made before the timing (no LB115), and float64 is asked for with `jax_enable_x64` set at import (no LB108). Code: the file as stored at commit 3761c9b, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the timed jitted call is never waited for; not discussed)
# lines: LB102:49
# first-sight: df1cd3d 2026-12-06 py: found LB102:49; missed none; false none | notebook: found LB102:49; missed none; false none

from __future__ import annotations

import sys

import jax
import jax.numpy as jnp
import numpy as np

jax.config.update("jax_enable_x64", True)


@jax.jit
def f(
    m: np.ndarray[tuple[int], np.float64],
    k1: np.ndarray[tuple[int], np.float64],
    k2: np.ndarray[tuple[int], np.float64],
) -> np.ndarray[tuple[int], np.float64]:
    """
    memory used: MK
    FLOPS: 4MK
    """
    A_mk = jnp.square(jnp.outer(m, k1))
    return A_mk @ k2


def ref(M, K):
    return np.square(jnp.arange(1, M + 1)) * K


def run(
    M: int = 47,
    K: int = 101,
):
    m = jnp.arange(1, M + 1, dtype=np.float64)
    k1 = jnp.arange(1, K + 1, dtype=np.float64)
    k2 = jnp.square(jnp.reciprocal(k1))
    np.testing.assert_allclose(f(m, k1, k2), ref(M, K))

    get_ipython().run_line_magic("timeit", "f(m, k1, k2)")


def main() -> None:
    if len(sys.argv) != 3:
        print(f"Usage: {sys.argv[0]} M K", file=sys.stderr)
        sys.exit(1)
    run(int(sys.argv[1]), int(sys.argv[2]))


if __name__ == "__main__":
    main()
