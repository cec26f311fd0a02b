"""Items 14 and 15: public arguments checked up front, with the argument, what was expected and what
was got; outputs of different structure are different computations, naming the keys; identical NaN
outputs agree; NumPy's warnings about levelbench's own arithmetic do not reach the user."""

import collections
import warnings

import numpy as np
import pytest

import levelbench
from levelbench._measuring.parity import compare_leaves, to_numpy_leaves

pytestmark = pytest.mark.reliability

X = np.ones(3)
FAST = {"budget": 0.1, "environment": False, "peak": False, "count_flops": False}


@pytest.mark.parametrize(("call", "error", "says"), [
    (lambda: levelbench.measure(42), TypeError,
     r"measure: fn \(the first argument\) must be callable .*got 42 \(int\); pass the function and its arguments"),
    (lambda: levelbench.measure(np.sin(X)), TypeError, r"must be callable.*\(ndarray\).*levelbench.measure\(np.sin, x\)"),
    (lambda: levelbench.measure(np.sin, X, budget="1"), TypeError,
     r"measure: budget must be a number of seconds >= 0, got '1' \(str\); pass the number itself, e.g. budget=1"),
    (lambda: levelbench.measure(np.sin, X, budget=float("nan")), ValueError, r"budget .* got nan"),
    (lambda: levelbench.measure(np.sin, X, min_samples=2.5), TypeError, r"min_samples must be an integer >= 1, got 2.5"),
    (lambda: levelbench.measure(np.sin, X, label=5), TypeError, r"label must be a string \(or None\), got 5 \(int\)"),
    (lambda: levelbench.measure(np.sin, X, timer=5), TypeError, r"measure: timer must be callable"),
    (lambda: levelbench.measure(np.sin, X, flops=-5), ValueError, r"flops must be None or a number .* >= 0, got -5"),
    (lambda: levelbench.measure(np.sin, X, save=3), TypeError, r"save must be True .* or a database path .* got 3"),
    (lambda: levelbench.compare(list), TypeError, r"compare: candidates must be a dict of name -> candidate"),
    (lambda: levelbench.compare([("a", np.sin)]), TypeError, r"got \[\('a', .*\(list\); .* pass dict\(pairs\)"),
    (lambda: levelbench.compare({}), ValueError, r"at least one candidate, got an empty dict"),
    (lambda: levelbench.compare({1: np.sin}), TypeError, r"candidate names must be non-empty strings, got 1 \(int\)"),
    (lambda: levelbench.compare({"a": np.sin}, baseline="b"), ValueError,
     r"compare: baseline 'b' is not a candidate; the candidates are \['a'\]"),
    (lambda: levelbench.compare({"a": np.sin}, rtol=-1), ValueError,
     r"compare: rtol must be None \(dtype-aware default\) or a relative tolerance >= 0, e.g. 1e-5, got -1 \(int\)"),
    (lambda: levelbench.compare({"a": np.sin}, atol="x"), TypeError, r"compare: atol must be .* got 'x' \(str\)"),
    (lambda: levelbench.compare({"a": np.sin}, min_rounds=0), ValueError, r"compare: min_rounds must be an integer >= 1"),
    (lambda: levelbench.compare({"a": np.sin}, strict="no"), TypeError, r"compare: strict must be True or False, got 'no'"),
    (lambda: levelbench.compare({"a": np.sin}, timeout=-1), ValueError, r"compare: timeout must be None or .* > 0"),
    (lambda: levelbench.compare({"a": np.sin}, budget="1"), TypeError, r"compare: budget must be a number"),
])
def test_a_wrong_argument_is_named_with_what_was_expected_and_got(call, error, says):
    with pytest.raises(error, match=says):
        call()


def test_arguments_are_checked_before_anything_runs():
    calls = []
    with pytest.raises(ValueError, match="rtol"):
        levelbench.compare({"a": lambda: calls.append(1)}, rtol=-1)
    with pytest.raises(TypeError, match="budget"):
        levelbench.measure(lambda: calls.append(1), budget="1")
    assert calls == []


def test_save_takes_a_path_object(tmp_path):
    db = tmp_path / "given.db"
    levelbench.measure(np.sin, X, budget=0.05, environment=False, save=db)
    assert db.exists(), "save=Path(...) wrote to the default database instead"


# -- item 14: structure ---------------------------------------------------------------------------
def _agree(a, b, **kw):
    c = levelbench.compare({"a": (lambda: a, ()), "b": (lambda: b, ())}, strict=False, **FAST, **kw)
    return c.agreements[0]


def test_different_dict_keys_are_a_different_computation_and_the_keys_are_named():
    agreement = _agree({"loss": X, "grad": X}, {"loss": X, "grads": X})
    assert not agreement.ok
    assert "only b has ['grads']" in agreement.detail and "only a has ['grad']" in agreement.detail
    with pytest.raises(levelbench.ComparisonError, match=r"different output structure.*\['grads'\]"):
        levelbench.compare({"a": (lambda: {"loss": X, "grad": X}, ()), "b": (lambda: {"loss": X, "grads": X}, ())},
                           **FAST)


def test_different_nesting_is_a_different_computation():
    agreement = _agree([[X, X], [X]], [[X], [X, X]])
    assert not agreement.ok and "different output structure" in agreement.detail
    assert "[0][1]" in agreement.detail and "[1][1]" in agreement.detail


def test_the_same_keys_in_another_order_agree_and_swapped_values_do_not():
    assert _agree({"u": X, "v": 2 * X}, {"v": 2 * X, "u": X}).ok
    assert not _agree({"u": X, "v": 2 * X}, {"u": 2 * X, "v": X}).ok


def test_a_namedtuple_has_the_same_paths_with_or_without_jax_imported(monkeypatch):
    Pair = collections.namedtuple("Pair", "loss grad")
    without = [p for p, _ in to_numpy_leaves(Pair(X, X))]
    jax = pytest.importorskip("jax")
    assert "jax" in __import__("sys").modules and jax
    with_jax = [p for p, _ in to_numpy_leaves(Pair(X, X))]
    monkeypatch.delitem(__import__("sys").modules, "jax")
    assert [p for p, _ in to_numpy_leaves(Pair(X, X))] == with_jax == without == [".loss", ".grad"]


# -- item 15: NaN, infinities, warnings --------------------------------------------------------------
@pytest.mark.parametrize("values", [
    [np.nan, np.nan, np.nan],          # all NaN
    [1.0, np.nan, 3.0],                # NaN in the same place
    [np.inf, -np.inf, np.nan],         # infinities of the same sign, and NaN
])
def test_identical_non_finite_outputs_agree_without_a_numpy_warning(values):
    out = np.array(values)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        agreement = compare_leaves("b", [("", out.copy())], "a", [("", out.copy())], None, 0.0)
        assert agreement.ok, agreement
        assert _agree(out.copy(), out.copy()).ok


@pytest.mark.parametrize(("mine", "theirs"), [
    ([np.nan, 1.0], [2.0, 1.0]),
    ([np.inf, 1.0], [-np.inf, 1.0]),
    ([np.inf, 1.0], [5.0, 1.0]),
    ([np.nan, 1.0], [np.inf, 1.0]),
])
def test_non_finite_values_in_different_places_disagree_without_a_numpy_warning(mine, theirs):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        agreement = compare_leaves("b", [("", np.array(mine))], "a", [("", np.array(theirs))], None, 0.0)
    assert not agreement.ok and agreement.where == "[0]"


def test_complex_outputs_are_compared_whole_not_by_their_real_part():
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no ComplexWarning: the imaginary part is not dropped
        agreement = compare_leaves("b", [("", np.array([1 + 1j]))], "a", [("", np.array([1 + 2j]))], None, 0.0)
    assert not agreement.ok and agreement.max_abs_error == pytest.approx(1.0)


def test_non_numeric_outputs_are_compared_for_equality():
    same = compare_leaves("b", [("", np.array(["x", "y"]))], "a", [("", np.array(["x", "y"]))], None, 0.0)
    other = compare_leaves("b", [("", np.array(["x", "z"]))], "a", [("", np.array(["x", "y"]))], None, 0.0)
    assert same.ok and not other.ok and "must be equal" in other.detail


def test_numpy_scalars_are_accepted_as_numbers():
    m = levelbench.measure(np.sin, X, budget=np.float64(0.05), min_samples=np.int64(3), environment=False)
    assert m.n_samples >= 3
