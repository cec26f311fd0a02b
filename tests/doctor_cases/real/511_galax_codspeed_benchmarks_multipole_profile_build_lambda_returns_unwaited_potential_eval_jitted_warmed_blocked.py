# source: https://github.com/GalacticDynamics/galax/blob/4c3918904ccb61d44a2a02518da01479bb0ff5e0/tests/benchmark/test_potential_multipole_profile.py
# title: galax's pytest-codspeed benchmarks `tests/benchmark/test_potential_multipole_profile.py`: the construction of a `MultipoleProfilePotential` from a triaxial NFW potential ('projection + Poisson + spline fitting') timed through `benchmark(lambda: _pot(l_max, n_r))`, and its jitted potential and gradient evaluated at one point and at 1,000 and 100,000 points, each warmed once and waited with `jax.block_until_ready`
# established-by: maintainer GalacticDynamics (the galax project's benchmark suite; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings. The `benchmark` fixture times each call of the lambda it is handed and discards what the lambda returns; in `test_build` the lambda returns the new potential, an Equinox module whose multipole coefficients and splines galax computes with JAX operations, and nothing waits for them, so on an accelerator the clock can stop while the fitting is still queued (LB102, at the `benchmark(...)` call in `test_build`; 052's reading of a pytest-benchmark call that leaves JAX results unwaited, and 478's of library operations returning JAX arrays unwaited). `test_eval` and `test_eval_batch` build the potential and the inputs outside the timing, jit the evaluation, call it once waited, and hand the fixture a lambda that waits (no LB102, no LB103); `jax.jit` is applied once per test, outside the timed lambda (no LB111); the fixture takes many rounds (no LB104). The module docstring's note that pytest-codspeed's walltime instrument under-reports absolute numbers by the iterations-per-round factor concerns the harness, not a catalogue fault. Code: the file at commit 4c39189, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the construction benchmark's lambda returns JAX results that nothing waits for; the catalogue's reading, as in 052 and 478, not discussed)
# lines: LB102:66
# first-sight: 6043315 2026-12-06 py: found none; missed LB102:66; false none | notebook: found none; missed LB102:66; false none

"""Benchmarks for `MultipoleProfilePotential`.

NOTE: pytest-codspeed 4.2.0's walltime instrument under-reports absolute
numbers by roughly the `iter_per_round` factor; relative comparisons between
runs remain valid. See the note in `test_potential_scf.py`.
"""

from collections.abc import Callable

import jax
import pytest

import quaxed.numpy as jnp
import unxt as u

import galax.potential as gp


def _source() -> gp.TriaxialNFWPotential:
    return gp.TriaxialNFWPotential(
        m=u.Q(1e12, "Msun"),
        r_s=u.Q(10.0, "kpc"),
        q1=1.0,
        q2=0.8,
        units="galactic",
    )


def _pot(l_max: int, n_r: int) -> gp.MultipoleProfilePotential:
    return gp.MultipoleProfilePotential.from_potential(
        _source(),
        r_min=u.Q(1e-2, "kpc"),
        r_max=u.Q(1e4, "kpc"),
        n_r=n_r,
        l_max=l_max,
        symmetry="triaxial",
    )


# NOTE: `pot` must be an explicit jit argument, never baked into the closure --
# equinox's default `Module.__hash__` hashes `constants["G"]`, a JAX-array
# Quantity, which is unhashable. Pre-existing and class-agnostic; see the same
# note in `test_potential_scf.py`.
def _potential(pot, xyz, t):
    return pot.potential(xyz, t)


def _gradient(pot, xyz, t):
    return pot.gradient(xyz, t)


@pytest.mark.parametrize(("l_max", "n_r"), [(0, 128), (4, 128), (8, 128), (8, 512)])
@pytest.mark.benchmark(group="multipole_profile_build")
def test_build(benchmark, l_max: int, n_r: int) -> None:
    """Construction cost: projection + Poisson + spline fitting."""
    benchmark(lambda: _pot(l_max, n_r))


@pytest.mark.parametrize("l_max", [0, 4, 8])
@pytest.mark.parametrize("func", [_potential, _gradient])
@pytest.mark.benchmark(group="multipole_profile_eval")
def test_eval(benchmark, func: Callable, l_max: int) -> None:
    """Per-point evaluation, and the `jax.grad` force cost relative to it."""
    pot = _pot(l_max, 128)
    xyz = u.Q(jnp.asarray([1.0, 2.0, 3.0]), "kpc")
    t = u.Q(0.0, "Myr")
    jitted = jax.jit(func)
    jax.block_until_ready(jitted(pot, xyz, t))
    benchmark(lambda: jax.block_until_ready(jitted(pot, xyz, t)))


@pytest.mark.parametrize("n", [1_000, 100_000])
@pytest.mark.benchmark(group="multipole_profile_batch")
def test_eval_batch(benchmark, n: int) -> None:
    """Batched evaluation, the regime that matters for orbit integration."""
    pot = _pot(8, 128)
    key = jax.random.PRNGKey(0)
    xyz = u.Q(10.0 * jax.random.normal(key, (n, 3)), "kpc")
    t = u.Q(0.0, "Myr")
    jitted = jax.jit(_gradient)
    jax.block_until_ready(jitted(pot, xyz, t))
    benchmark(lambda: jax.block_until_ready(jitted(pot, xyz, t)))
