"""Framework work the doctor knows through a function's parameters.

A local function whose body only applies operators to its parameters (``def chain(x): x = x @ x``) runs in the
framework of the arrays it is handed: called with a torch tensor it is PyTorch work, with a Python number none.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[str]:
    return {d.code for d in lint_source(textwrap.dedent(source), "case.py")}


GIVEN_AN_ARRAY = """
import time
import torch

def scale(t, k):
    return t * k + 1

{setup}
t0 = time.perf_counter()
{timed}
print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize("setup", ["x = torch.randn(4096)", "x = torch.ones(64, 64).double()"])
def test_a_local_function_computing_on_a_tensor_it_is_given_is_framework_work(setup):
    assert "LB104" in findings(GIVEN_AN_ARRAY.format(setup=setup, timed="y = scale(x, 3)"))


@pytest.mark.parametrize(
    ("setup", "timed"),
    [("x = 4096.0", "y = scale(x, 3)"),  # a Python number: nothing of a framework runs
     ("x = torch.randn(4096)", "samples = [scale(x, 3) for _ in range(20)]")],  # a total over 20 runs
)
def test_a_local_function_given_no_array_or_timed_over_many_runs_stays_quiet(setup, timed):
    assert "LB104" not in findings(GIVEN_AN_ARRAY.format(setup=setup, timed=timed))
