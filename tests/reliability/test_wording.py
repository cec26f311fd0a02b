"""Item 18, wording: what measure and compare print reads right from Python as well as from the CLI."""

import dataclasses

import numpy as np
import pytest

import levelbench
from levelbench._measuring import checks
from levelbench._rendering.comparison import isolation_line

pytestmark = pytest.mark.reliability

X = np.ones((20, 20))


@pytest.fixture(scope="module")
def comparison():
    return levelbench.compare({"dot": (np.dot, (X, X)), "matmul": (np.matmul, (X, X))}, budget=0.1, rel_ci=1e-6,
                              environment=False, peak=False)


def test_advice_to_raise_the_budget_names_the_argument_as_well_as_the_option(comparison):
    text = str(comparison)
    assert "raise the budget (budget=... / --budget)" in text
    assert "raise --budget" not in text


def test_a_noisy_measurement_says_how_to_raise_the_budget_and_does_not_send_compare_to_compare():
    m = levelbench.measure(np.dot, X, X, budget=0.05, environment=False)
    noisy = dataclasses.replace(m, samples=(1.0, 1.0, 2.0, 3.0, 1.0, 4.0))
    fixes = [f.fix for f in checks.steady_findings(noisy) if f.code == "LB003"]
    assert len(fixes) == 1 and "raise the budget (budget=... / --budget)" in fixes[0]
    assert "compare interleaved with levelbench.compare" not in fixes[0]


@pytest.mark.parametrize(("wake_up", "says", "never"), [
    (0.25, "they ran up to 25% slower than the block's median: dot", "-"),
    (-0.09, "as warm-up; here they ran no slower than the rest", "-9%"),
])
def test_first_samples_are_described_by_how_much_slower_they_ran(comparison, wake_up, says, never):
    iso = dataclasses.replace(comparison.isolation, wake_up={"dot": wake_up}, spin={})
    line = isolation_line(dataclasses.replace(comparison, isolation=iso))
    assert says in line and never not in line.split("discarded", 1)[1]
