# source: https://github.com/ThiboVE/particle_life/blob/1bb02a2eecbffdbb1a470436874c10459ac2f453/benchmarks/benchmark_jax.py
# title: particle_life's `benchmarks/benchmark_jax.py`: the pairwise force computation in plain NumPy, with a cell list, and as a jitted JAX function on the CPU, each timed as the mean of 20 calls with `timeit.timeit(..., number=20)` inside a `test_jax` function, the JAX one warmed first and waited on every call
# established-by: maintainer ThiboVE (the repository's author; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. `compute_forces_jax` (jitted in the package, as the comment '# warm-up / trigger compilation (excluded from timing)' says) is called once and waited before any timing (no LB103); each of its 20 timed calls ends in `block_until_ready()` inside the lambda (no LB102); each figure is `timeit.timeit` of 20 calls divided by 20, a mean over many runs, not one call between two clock reads (no LB104); `timeit` uses `perf_counter` (no LB105); the JAX inputs are made with `jnp.array` before the timing, so no host copy is timed (no LB115). The NumPy and cell-list versions are host code. A correct doctor stays quiet. Code: the file at commit 1bb02a2, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: d481e6f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit

import jax.numpy as jnp
import numpy as np

from particle_life import CellList, compute_forces, compute_forces_cell_list, compute_forces_jax


def test_jax() -> None:
    NUM_PARTICLES = 1000
    NUM_COLOURS = 3
    rng = np.random.default_rng(42)

    positions = rng.uniform(0, 1, size=(NUM_PARTICLES, 2))
    colours = rng.integers(0, NUM_COLOURS, size=(NUM_PARTICLES,))
    attraction_matrix = rng.uniform(-1, 1, size=(NUM_COLOURS, NUM_COLOURS))
    colour_pairs = attraction_matrix[colours[:, None], colours[None, :]]

    positions_jax = jnp.array(positions)
    colour_pairs_jax = jnp.array(colour_pairs)

    cell_list = CellList(6)
    cell_list.build(positions)

    # --- warm-up / trigger compilation (excluded from timing) ---
    compute_forces_jax(positions_jax, colour_pairs_jax, beta=0.3).block_until_ready()

    t_numpy = timeit.timeit(lambda: compute_forces(positions, colour_pairs, beta=0.3), number=20) / 20

    t_celllist = timeit.timeit(lambda: compute_forces_cell_list(positions, colour_pairs, cell_list), number=20) / 20

    t_jax_jit = (
        timeit.timeit(
            lambda: compute_forces_jax(positions_jax, colour_pairs_jax, beta=0.3).block_until_ready(), number=20
        )
        / 20
    )

    print(f"numpy: {t_numpy * 1000:.3f} ms")
    print(f"celllist: {t_celllist * 1000:.3f} ms")
    print(f"jax jit (CPU): {t_jax_jit * 1000:.3f} ms")
    print(f"speedup: {t_numpy / t_jax_jit:.2f}")


if __name__ == "__main__":
    test_jax()
