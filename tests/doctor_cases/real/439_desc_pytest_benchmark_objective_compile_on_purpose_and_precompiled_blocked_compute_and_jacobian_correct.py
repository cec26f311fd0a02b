# source: https://github.com/PlasmaControl/DESC/blob/020fa4c72c309c8c1d78e1797878dc2f78c7cc44/tests/benchmarks/benchmark_cpu_small.py
# title: DESC's `tests/benchmarks/benchmark_cpu_small.py` (the stellarator equilibrium solver's CI benchmark suite on CPU): pytest-benchmark `benchmark.pedantic` rounds of the equilibrium objective's compile, with a fresh objective built in `setup` for every round, and of its precompiled residual and Jacobian, each run ending in `.block_until_ready()`
# established-by: maintainer PlasmaControl (the DESC team's benchmark suite, run in CI and compared across commits by `compare_bench_results.py`; no issue discusses these tests' timing)
# cause: Correct code. `test_objective_compile_heliotron` times `objective.compile()` on purpose, as its docstring says ('Benchmark compiling objective'), and `setup` builds a new objective for each of the five rounds, so every round measures the compile it names (a compile timed on purpose: no LB103, no LB104, and no LB111, the fresh build being the point of each round). The compute and Jacobian tests build and `compile()` the objective before `benchmark.pedantic` is called, so the timed calls are warm (no LB103), and each timed `run` ends in `.block_until_ready()` on the residual or the Jacobian (no LB102); pytest-benchmark reads `perf_counter` over 10 rounds of 10 calls and 5 rounds of 5 and reports the spread (no LB104, no LB105). `desc.set_device("cpu")` is the suite's stated target, not a timing fault. A correct doctor stays quiet. Code: the file as stored at commit 020fa4c, trimmed; left out are the transform-build, equilibrium-initialisation and perturbation benchmarks (whose waits, if any, sit in DESC's library code), the DSHAPE_current and ATF copies of the three tests kept, the `TmpDir` fixture and the imports only they used (NumPy, the basis, grid, equilibrium, transform and perturbation modules, `get_fixed_boundary_constraints`).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: fb4008d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Benchmarks for timing comparison on cpu (that are small enough to run on CI)."""

import pytest

import desc

desc.set_device("cpu")
import desc.examples
from desc.objectives import get_equilibrium_objective


@pytest.mark.slow
@pytest.mark.benchmark
def test_objective_compile_heliotron(benchmark):
    """Benchmark compiling objective."""

    def setup():
        eq = desc.examples.get("HELIOTRON")
        objective = get_equilibrium_objective()
        objective.build(eq)
        args = (
            objective,
            eq,
        )
        kwargs = {}
        return args, kwargs

    def run(objective, eq):
        objective.compile()

    benchmark.pedantic(run, setup=setup, rounds=5, iterations=1)
    return None


@pytest.mark.slow
@pytest.mark.benchmark
def test_objective_compute_heliotron(benchmark):
    """Benchmark computing objective."""
    eq = desc.examples.get("HELIOTRON")
    objective = get_equilibrium_objective()
    objective.build(eq)
    objective.compile()
    x = objective.x(eq)

    def run(x):
        objective.compute_scaled_error(x, objective.constants).block_until_ready()

    benchmark.pedantic(run, args=(x,), rounds=10, iterations=10)
    return None


@pytest.mark.slow
@pytest.mark.benchmark
def test_objective_jac_heliotron(benchmark):
    """Benchmark computing jacobian."""
    eq = desc.examples.get("HELIOTRON")
    objective = get_equilibrium_objective()
    objective.build(eq)
    objective.compile()
    x = objective.x(eq)

    def run(x):
        objective.jac_scaled(x, objective.constants).block_until_ready()

    benchmark.pedantic(run, args=(x,), rounds=5, iterations=5)
    return None
