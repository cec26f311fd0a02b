"""levelbench.compare: parity before timing, work accounting, interleaved ratios."""

import json

import numpy as np
import pytest

import levelbench
from levelbench import Candidate, Comparison, ComparisonError
from levelbench._values.settings import COMPARING
from conftest import FakeClock


def test_mismatched_shapes_are_refused_naming_candidate_argument_and_values():
    jnp = pytest.importorskip("jax.numpy")
    x_jax = jnp.ones((3000, 3000), jnp.float32)
    x_np = np.random.normal((3000, 3000))  # the seed's mistake: loc=(3000, 3000), a 2-element array
    with pytest.raises(ComparisonError) as e:
        levelbench.compare({"jax": (jnp.dot, (x_jax, x_jax)), "numpy": (np.dot, (x_np, x_np))})
    msg = str(e.value)
    assert "numpy: argument 0 has shape (2,), jax has (3000, 3000)" in msg
    assert "dtype float64, jax has float32" in msg
    assert "fix:" in msg


def test_non_strict_records_the_mismatch_and_still_times():
    a = np.ones((4, 4), np.float32)
    b = np.ones((4, 4), np.float64)
    c = levelbench.compare({"a": (np.sum, (a,)), "b": (np.sum, (b,))}, strict=False, budget=0.2,
                           environment=False, peak=False)
    assert any(f.code == "LB301" and "dtype float64, a has float32" in f.title for f in c.findings)
    assert set(c.measurements) == {"a", "b"}


def test_different_outputs_are_not_the_same_computation():
    x = np.random.default_rng(0).standard_normal((8, 4))
    rows = lambda x: x / np.linalg.norm(x, axis=-1, keepdims=True)  # noqa: E731
    whole = lambda x: x / np.linalg.norm(x)  # noqa: E731
    with pytest.raises(ComparisonError, match="not the same computation: whole disagrees with rows") as e:
        levelbench.compare({"rows": (rows, (x,)), "whole": (whole, (x,))})
    assert "max abs error" in str(e.value) and "max rel error" in str(e.value)


def test_rounding_differences_within_dtype_tolerance_agree():
    x = np.random.default_rng(0).standard_normal((64, 64)).astype(np.float32)
    c = levelbench.compare({"dot": (np.dot, (x, x)), "matmul": (lambda a, b: (a.astype(np.float64) @ b).astype(np.float32), (x, x))},
                           budget=0.2, environment=False, peak=False)
    assert all(a.ok for a in c.agreements)


def test_ratio_ci_and_verdict_on_clearly_different_candidates():
    """On the fake clock, noisy calls of 1 ms and 3 ms: the ratio's CI holds the true 3x and excludes 1x,
    so the verdict is slower; the inverse ratio is exactly the reciprocal (same paired rounds)."""
    clock = FakeClock()
    c = fake_compare(clock, {"fast": _lognormal(7, 1e-3, 0.05), "slow": _lognormal(8, 3e-3, 0.05)}, budget=1.5)
    r = c.ratio("slow")
    assert r.lower < r.estimate < r.upper
    assert r.lower <= 3.0 <= r.upper and r.lower > 2.0 and r.upper < 4.0
    assert c.verdict("slow") == "slower"
    assert c.verdict("fast") == "baseline"
    inverse = c.ratio("fast", "slow")
    assert inverse.estimate == pytest.approx(1 / r.estimate, rel=1e-12)


def test_candidates_are_sampled_round_robin():
    """Turns alternate A B A B ...: first calls, calibrations, then one block each per round (the fake
    clock's constant costs reach the target at exactly min_rounds rounds), a block of several samples."""
    clock = FakeClock()
    order = []
    x = np.zeros(1)

    def tagged(tag):
        work = clock.work(2e-3, x)

        def f(x):
            order.append(tag)
            return work()

        return f

    c = levelbench.compare({"A": (tagged("A"), (x,)), "B": (tagged("B"), (x,))}, budget=0.3, environment=False,
                           peak=False, timer=clock)
    turns = [tag for i, tag in enumerate(order) if i == 0 or order[i - 1] != tag]  # runs of one candidate's calls
    assert all(a != b for a, b in zip(turns, turns[1:]))
    assert len(turns) >= 2 * 5  # first calls and calibration, then a block each per round, at least 5 rounds
    assert len(c.rounds["A"]) == len(c.rounds["B"]) == COMPARING.min_rounds
    samples_a = c.measurements["A"].n_samples
    assert samples_a > len(c.rounds["A"])  # a round holds a block of several samples


def test_lambda_lambda_is_flagged_implausibly_fast():
    n = 400
    x = np.random.default_rng(0).standard_normal((n, n)).astype(np.float32)
    c = levelbench.compare(
        {"numpy": Candidate(np.dot, (x, x), flops=2 * n**3),
         "wrapped": Candidate(lambda a, b: (lambda: np.dot(a, b)), (x, x))},
        strict=False, budget=0.5, environment=False,
    )
    found = {f.code for f in c.findings_for("wrapped")}
    assert "LB303" in found  # faster than the machine's peak allows for 2n^3 FLOPs
    assert "LB001" in found  # and the call returned a function
    assert "LB303" not in {f.code for f in c.findings_for("numpy")}


def test_different_work_is_flagged():
    x = np.ones((50, 50))
    c = levelbench.compare(
        {"gemm": Candidate(np.dot, (x, x), flops=2 * 50**3, group="g"),
         "syrk": Candidate(lambda a, b: a @ a.T, (x, x), flops=50**3, group="s")},
        budget=0.2, environment=False, peak=False,
    )
    lb304 = [f for f in c.findings if f.code == "LB304"]
    assert len(lb304) == 1 and lb304[0].subject == "syrk" and "0.50x" in lb304[0].title


def test_comparison_round_trips_through_json_and_renders():
    clock = FakeClock()
    c = fake_compare(clock, {"a": _lognormal(9, 1e-3, 0.05), "b": _lognormal(10, 1.5e-3, 0.05)}, budget=0.3,
                     title="t", params={"n": 2})
    back = Comparison.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.ratio("b").estimate == pytest.approx(c.ratio("b").estimate)
    assert back.measurements["a"] == c.measurements["a"]
    text = str(c)
    assert "ratio to a" in text and "b" in text


def test_unknown_baseline_and_bad_candidate_specs_say_what_is_accepted():
    with pytest.raises(ValueError, match=r"baseline 'z' is not a candidate; the candidates are \['a'\]"):
        levelbench.compare({"a": (np.sum, (np.ones(2),))}, baseline="z")
    with pytest.raises(TypeError, match=r"candidate 'a': expected a callable, \(fn, args\)"):
        levelbench.compare({"a": 3})


def test_ratio_of_unknown_candidate_names_the_candidates():
    x = np.zeros(2)
    c = levelbench.compare({"a": (np.sum, (x,))}, budget=0.1, environment=False, peak=False)
    with pytest.raises(KeyError, match="no candidate named 'q'"):
        c.ratio("q")


def test_measure_and_compare_save_to_the_store(tmp_path):
    from levelbench.store import open_store

    db = str(tmp_path / "r.db")
    x = np.zeros(2)
    levelbench.measure(np.sum, x, budget=0.1, save=db)
    levelbench.compare({"a": (np.sum, (x,)), "b": (np.mean, (x,))}, budget=0.1, save=db, strict=False,
                       peak=False, environment=False)
    assert len(open_store(db).runs()) == 2


# -- stopping rules, against the shared fake clock -----------------------------------------------
def fake_compare(clock, costs, **kw):
    out = np.zeros(3)
    candidates = {name: (clock.work(cost, out), ()) for name, cost in costs.items()}
    return levelbench.compare(candidates, timer=clock, environment=False, count_flops=False, peak=False, **kw)


def _lognormal(seed, mean, sigma):
    rng = np.random.default_rng(seed)
    while True:
        yield float(mean * rng.lognormal(0.0, sigma))


def test_constant_costs_stop_after_the_minimum_rounds_with_an_exact_ratio():
    clock = FakeClock()
    c = fake_compare(clock, {"a": 1e-3, "b": 2e-3}, budget=10)
    assert c.target_reached
    assert [len(r) for r in c.rounds.values()] == [COMPARING.min_rounds] * 2
    assert c.ratio("b").estimate == pytest.approx(2.0) and c.ratio("b").upper == pytest.approx(2.0)


def test_noise_within_the_target_stops_before_the_budget():
    clock = FakeClock()
    c = fake_compare(clock, {"a": _lognormal(1, 1e-3, 0.05), "b": _lognormal(2, 3e-3, 0.05)}, rel_ci=0.05,
                     budget=1e9)
    assert c.target_reached
    ratio = c.ratio("b")
    assert ratio.lower <= 3.0 <= ratio.upper and (ratio.upper - ratio.lower) / ratio.estimate <= 2 * 0.05
    assert clock.now < 60  # stopped on the interval, not on the (huge) budget


def test_noise_beyond_the_target_stops_at_the_first_round_past_the_budget():
    clock = FakeClock()
    ends: list[float] = []  # the fake time at the end of every timed round
    budget = 5.0
    c = fake_compare(clock, {"a": _lognormal(3, 1e-3, 1.0), "b": _lognormal(4, 1e-3, 1.0)}, rel_ci=0.001,
                     budget=budget, progress=lambda stage, _: ends.append(clock.now) if stage == "timing" else None)
    assert not c.target_reached
    assert len(c.rounds["a"]) == len(ends) > COMPARING.min_rounds
    per_round = (ends[-1] - ends[0]) / (len(ends) - 1)  # blocks have fixed sample counts: rounds vary a little
    start = ends[0] - per_round
    slack = per_round / 2
    assert ends[-2] - start < budget + slack and ends[-1] - start >= budget - slack


def test_a_budget_smaller_than_the_minimum_rounds_still_takes_them():
    clock = FakeClock()
    c = fake_compare(clock, {"a": _lognormal(5, 1e-3, 1.0), "b": _lognormal(6, 1e-3, 1.0)}, rel_ci=0.001,
                     budget=0.01)
    assert not c.target_reached and [len(r) for r in c.rounds.values()] == [COMPARING.min_rounds] * 2


def test_a_candidate_that_compiles_on_every_call_ends_at_the_budget_not_after_fifty_rounds():
    """Real JAX compiles on every call of ``rebuilds`` (every block discarded), on the fake clock (50 ms a
    call): the rounds end at the first round past the budget once min_rounds were taken (the budget is
    set so that this comes before overrun_factor x the budget), not after max_rounds_factor x min_rounds
    rounds (minutes, before)."""
    jax = pytest.importorskip("jax")
    jnp = jax.numpy
    clock = FakeClock()
    steady_f = jax.jit(jnp.sin)

    def steady(x):
        clock.now += 0.05
        return steady_f(x)

    def rebuilds(x):  # a new jitted function each call: every call compiles, every block is discarded
        clock.now += 0.05
        return jax.jit(lambda y: jnp.sin(y) + 1)(x)

    x = jnp.ones(8)
    ends: list[float] = []  # the fake time at the end of every timed round
    with pytest.raises(RuntimeError, match="every sample was discarded because JAX compiled"):
        levelbench.compare({"steady": (steady, (x,)), "rebuilds": (rebuilds, (x,))}, budget=2.0, timer=clock,
                           check_outputs=False, environment=False, peak=False, count_flops=False,
                           progress=lambda stage, _: ends.append(clock.now) if stage == "timing" else None)
    start = ends[0] - (ends[1] - ends[0])  # rounds of fixed block sizes: each as long as the next
    assert len(ends) == COMPARING.min_rounds  # (at overrun_factor x the budget it would be 9 rounds)
    assert 2.0 <= ends[-1] - start < COMPARING.overrun_factor * 2.0, ends
