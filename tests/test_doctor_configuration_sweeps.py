"""A sweep that builds a fresh solver per configuration and times one solve of each (case 301, MPAX's sweep).

- `levelbench.doctor._bindings.Bindings.elements`: ``for name, cls in solvers_for(is_qp)`` binds ``cls`` to the
  classes the local def's ``return [("raPDHG", raPDHG), ...]`` lists, so ``cls(...)`` is read as MPAX's solver
  (`_names.JAX_LIBRARIES`) and ``solver.optimize(problem)`` returns JAX values: nothing waits for them (LB102).
- `levelbench.doctor._regions`: ``solver = cls(eps_abs=tol)`` built in each pass of ``for tol in args.tol`` and
  its method timed is one sample per configuration (LB104), whatever the values are read from; a loop over data
  that hands each item to one object stays repeats of one measurement.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "run.py")}


SWEEP = """\
import argparse
import timeit
from jax import config
from mpax.mp_io import create_qp_from_gurobi
from mpax.rapdhg import raPDHG
from mpax.r2hpdhg import r2HPDHG

def solvers_for(is_qp):
    if is_qp:
        return [("raPDHG", raPDHG)]
    return [("raPDHG", raPDHG), ("r2HPDHG", r2HPDHG)]

def main(paths, tolerances):
    rows = []
    for path in paths:
        problem = create_qp_from_gurobi(path)
        for solver_name, cls in solvers_for(False):
            for tol in {values}:
                solver = cls(eps_abs=tol, eps_rel=tol)
                t0 = timeit.default_timer()
                result = solver.optimize(problem)
                elapsed = timeit.default_timer() - t0
                rows.append((solver_name, tol, float(result.primal_objective), elapsed))
    print(rows)

if __name__ == "__main__":
    ap = argparse.ArgumentParser()
    ap.add_argument("--tol", nargs="*", type=float, default=[1e-4, 1e-8])
    args = ap.parse_args()
    main(["a.mps"], args.tol)
"""


@pytest.mark.parametrize("values", ["tolerances", "(1e-4, 1e-8)"])
def test_one_cold_unwaited_solve_per_configuration(values):
    assert {("LB102", 21), ("LB104", 21)} <= findings(SWEEP.format(values=values))


def test_a_loop_over_data_handed_to_one_object_repeats_one_measurement():
    source = SWEEP.format(values="tolerances").replace(
        "solver = cls(eps_abs=tol, eps_rel=tol)", "solver = cls(eps_abs=1e-4, eps_rel=1e-4)"
    ).replace("solver.optimize(problem)", "solver.optimize(tol)")
    assert not any(code == "LB104" for code, _ in findings(source))
