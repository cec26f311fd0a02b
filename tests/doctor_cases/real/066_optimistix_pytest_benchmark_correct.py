# source: https://github.com/patrick-kidger/optimistix/blob/main/benchmarks/test_benchmarks.py
# title: optimistix benchmarks/test_benchmarks.py
# established-by: maintainer patrick-kidger (the library's own pytest-benchmark suite)
# cause: Correct benchmark code: the solver is jitted once outside the timing, warmed up, and the timed wrapper blocks on the objective value before pytest-benchmark stops its clock (benchmark.pedantic, five rounds).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

import functools as ft

import jax
import optimistix as optx
import pytest

from .helpers import cutest_unconstrained_problems


cutest = pytest.mark.skipif("not config.getoption('cutest')")


# Benchmark solvers that are part of documented API.
unconstrained_minimisers = (optx.BFGS(rtol=1e-3, atol=1e-6),)


@cutest
@pytest.mark.benchmark
@pytest.mark.parametrize("problem", cutest_unconstrained_problems)
@pytest.mark.parametrize("minimiser", unconstrained_minimisers)
def test_runtime_unconstrained_minimisers(benchmark, minimiser, problem):
    solve = jax.jit(
        ft.partial(
            optx.minimise,
            problem.objective,
            minimiser,
            args=problem.args(),
            max_steps=2**8,  # TODO: increase number of steps - for tough problems
            throw=False,
        )
    )

    _ = solve(problem.y0())  # Warm up

    def wrapped(y0):
        solution = solve(y0)
        objective_value = solution.state.f_info.f.block_until_ready()
        num_steps = solution.stats["num_steps"]
        return objective_value, solution.result, num_steps

    # Benchmark the runtime of the compiled function
    values = benchmark.pedantic(wrapped, args=(problem.y0(),), rounds=5, iterations=1)

    # Save information and results
    objective_value, result, num_steps = values
    benchmark.extra_info["number of steps"] = num_steps
    benchmark.extra_info["objective value"] = objective_value
    benchmark.extra_info["result"] = result
    benchmark.extra_info["problem name"] = problem.__class__.__name__
    benchmark.extra_info["solver name"] = minimiser.__class__.__name__
