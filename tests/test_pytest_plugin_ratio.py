"""Ratio assertions of the pytest plugin, on hand-built comparisons (no timing involved)."""

import pytest

from levelbench import Comparison, Interval, Measurement
from levelbench.pytest_plugin.assertions import Bound, CheckedComparison, Ratio, explain, table


def measurement(label, median, framework="numpy"):
    samples = tuple(median * f for f in (0.98, 0.99, 1.0, 1.01, 1.02, 1.0, 0.99, 1.01))
    return Measurement(label=label, framework=framework, samples=samples, calls_per_sample=10, first_call=median)


@pytest.fixture
def comparison():
    jax, torch = measurement("jax", 3e-3, "jax"), measurement("torch", 1e-3, "torch")
    return Comparison(baseline="torch", measurements={"jax": jax, "torch": torch},
                      rounds={"jax": jax.samples, "torch": torch.samples})


def test_a_ratio_compares_on_the_side_of_its_interval_that_matters(comparison):
    r = Ratio(Interval(1.1, 1.0, 1.3), "jax", "torch", comparison)
    assert not r < 1.2 and r < 1.4 and r <= 1.3  # "below" needs the upper bound below
    assert r > 0.9 and not r > 1.05 and r >= 1.0  # "above" needs the lower bound above
    assert 1.4 > r and not 1.2 > r  # reflected comparisons read the same
    assert r.contains(1.2) and not r.contains(1.31)


def test_bounds_are_floats_that_remember_their_ratio(comparison):
    r = Ratio(Interval(1.1, 1.0, 1.3), "jax", "torch", comparison)
    assert isinstance(r.upper, Bound) and r.upper == 1.3 and r.upper.which == "upper" and r.upper.ratio is r
    assert r.lower + 1 == 2.0 and type(r.lower + 1) is float  # arithmetic gives plain floats
    assert repr(r.estimate) == "1.1"
    assert repr(r) == "Ratio(jax/torch = 1.1, 95% CI 1 .. 1.3)"


def test_a_checked_comparison_gives_ratios_and_is_otherwise_the_comparison(comparison):
    c = CheckedComparison(comparison)
    r = c.ratio("jax")
    assert isinstance(r, Ratio) and r.baseline == "torch"
    assert r.estimate == pytest.approx(3.0) and r.lower <= 3.0 <= r.upper
    assert c.ratio("torch", "jax").estimate == pytest.approx(1 / 3)
    assert c.verdict("jax") == "slower" and c.names == ["jax", "torch"] and str(c) == str(comparison)
    with pytest.raises(KeyError, match="no candidate named 'numpy'"):
        c.ratio("numpy")


def test_a_failed_bound_assertion_is_explained_with_the_table(comparison):
    r = CheckedComparison(comparison).ratio("jax", "torch")
    lines = explain("<", r.upper, 1.2)
    assert lines[0] == f"jax/torch time ratio upper bound {float(r.upper):.3g} < 1.2"
    assert lines[1].startswith("jax takes 3x the time of torch, 95% CI ")
    assert lines[2].split() == ["candidate", "steady", "median", "95%", "CI", "ratio", "to", "torch", "verdict"]
    assert lines[3].startswith("jax (jax)") and lines[3].endswith("slower")
    assert lines[4].startswith("torch (torch)") and lines[4].endswith("baseline")
    assert len(lines) <= 8 and sum(map(len, lines)) <= 640  # pytest would truncate a longer message


def test_reflected_and_direct_ratio_comparisons_are_explained(comparison):
    r = CheckedComparison(comparison).ratio("jax", "torch")
    assert explain(">", 1.2, r.upper)[0].endswith("< 1.2")
    assert explain("<", r, 1.2)[0] == "jax/torch time ratio < 1.2 (compared by its CI's upper bound)"
    assert explain(">", r, 5)[0] == "jax/torch time ratio > 5 (compared by its CI's lower bound)"


def test_other_assertions_are_left_to_pytest():
    assert explain("<", 1.3, 1.2) is None
    assert explain("==", "faster", "slower") is None


def test_the_table_can_be_relative_to_another_baseline(comparison):
    rows = table(comparison, "jax")
    assert "ratio to jax" in rows[0]
    assert rows[1].endswith("baseline") and rows[2].endswith("faster")
