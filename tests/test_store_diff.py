"""``diff_runs`` / ``levelbench diff``: verdicts per candidate on raw samples, effect size, environments."""

from __future__ import annotations

import json

import numpy as np
import pytest
from test_store_fakes import ENV, record, result

import levelbench
from levelbench._results.workload import WorkloadResult
from levelbench.store import StoreError, diff_runs, mann_whitney_u, open_store, previous_run, runs_to_diff
from conftest import FakeClock
from conftest import levelbench_cli as _cli

MS = 1e-3


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "results.db") as s:
        yield s


def _runs(store, before, after, env_after=None):
    a = record(store, before)
    b = record(store, after, environment=env_after)
    return store.run(a), store.run(b)


def test_mann_whitney_matches_scipy_exact_and_approximate():
    stats = pytest.importorskip("scipy.stats")
    rng = np.random.default_rng(3)
    for n1, n2, shift, rounding in [(5, 5, 1.0, None), (12, 9, 0.6, None), (30, 30, 0.3, None), (80, 60, 0.2, None),
                                    (25, 25, 0.5, 1), (400, 300, 0.05, None)]:
        x, y = rng.normal(0, 1, n1), rng.normal(shift, 1, n2)
        if rounding is not None:
            x, y = np.round(x, rounding), np.round(y, rounding)
        method = "exact" if rounding is None and max(n1, n2) <= 30 else "asymptotic"
        expected = stats.mannwhitneyu(x, y, alternative="two-sided", method=method).pvalue
        assert mann_whitney_u(x, y) == pytest.approx(expected, rel=1e-9, abs=1e-12), (n1, n2, rounding)


def test_mann_whitney_on_identical_and_separated_samples():
    assert mann_whitney_u([1.0] * 8, [1.0] * 8) == 1.0
    assert mann_whitney_u(range(10), range(100, 110)) == pytest.approx(2 / 184756)


def test_each_candidate_gets_a_verdict(store):
    before = [result("w", {"same": ("numpy", MS), "slowed": ("numpy", MS), "faster": ("jax", MS),
                           "drift": ("torch", MS)}, n=400, spread=0.02, seed=1)]
    after = [result("w", {"same": ("numpy", MS), "slowed": ("numpy", 2 * MS), "faster": ("jax", 0.5 * MS),
                          "drift": ("torch", 1.02 * MS)}, n=400, spread=0.02, seed=2)]
    d = diff_runs(*_runs(store, before, after))
    verdicts = {c.candidate: c.verdict for c in d.changes}
    assert verdicts == {"same": "no change", "slowed": "regression", "faster": "improvement", "drift": "no change"}
    by = {c.candidate: c for c in d.changes}
    # 2% drift over 400 samples is significant, yet under the 5% minimum effect.
    assert by["drift"].p_value < 0.001 and by["drift"].change == pytest.approx(0.02, abs=0.01)
    assert by["slowed"].ratio.lower > 1.9 and by["slowed"].ratio.upper < 2.1
    assert by["slowed"].before.estimate == pytest.approx(MS, rel=0.01)
    assert d.has_regression and [c.candidate for c in d.regressions] == ["slowed"]
    assert d.environment_differences == ()


def test_the_minimum_effect_decides_what_counts(store):
    before = [result("w", {"a": ("numpy", MS)}, seed=1)]
    after = [result("w", {"a": ("numpy", 1.3 * MS)}, seed=2)]
    runs = _runs(store, before, after)
    assert diff_runs(*runs).changes[0].verdict == "regression"
    assert diff_runs(*runs, min_effect=0.5).changes[0].verdict == "no change"
    with pytest.raises(ValueError, match="min_effect is a fraction"):
        diff_runs(*runs, min_effect=50)


def test_too_few_samples_is_no_change_even_for_a_big_ratio(store):
    before = [result("w", {"a": ("numpy", MS)}, n=3, spread=0.3, seed=1)]
    after = [result("w", {"a": ("numpy", 1.5 * MS)}, n=3, spread=0.3, seed=2)]
    change = diff_runs(*_runs(store, before, after)).changes[0]
    assert change.p_value >= 0.05 and change.verdict == "no change"


def test_failures_and_missing_workloads_and_candidates(store):
    before = [result("gone", {"a": ("numpy", MS)}), result("breaks", {"a": ("numpy", MS)}),
              result("grows", {"a": ("numpy", MS)})]
    after = [WorkloadResult("breaks", {"seed": 0}, "failed", None, "the worker died with SIGSEGV\nmore"),
             result("grows", {"a": ("numpy", MS), "b": ("jax", MS)}), result("new", {"a": ("numpy", MS)})]
    d = diff_runs(*_runs(store, before, after))
    rows = [(c.workload, c.candidate, c.verdict, c.note) for c in d.changes]
    assert rows == [
        ("gone", "a", "missing", "only in run 1"),
        ("breaks", "a", "failed", "failed in run 2: the worker died with SIGSEGV"),
        ("grows", "a", "no change", ""),
        ("grows", "b", "missing", "only in run 2"),
        ("new", "a", "missing", "only in run 2"),
    ]
    assert d.has_regression  # a workload that ran before and fails now fails CI too


def test_results_are_matched_by_parameters(store):
    before = [result("w", {"a": ("numpy", MS)}, params={"n": 1}), result("w", {"a": ("numpy", MS)}, params={"n": 2})]
    after = [result("w", {"a": ("numpy", MS)}, params={"n": 2}), result("w", {"a": ("numpy", 3 * MS)}, params={"n": 1})]
    d = diff_runs(*_runs(store, before, after))
    assert [(c.params["n"], c.verdict) for c in d.changes] == [(1, "regression"), (2, "no change")]


def test_environment_differences_are_named(store):
    env = {**ENV, "cpu": "Other CPU", "packages": {**ENV["packages"], "jax": "0.10.3"},
           "env_vars": {"XLA_FLAGS": "--xla_cpu_multi_thread_eigen=false"}}
    d = diff_runs(*_runs(store, [result("w", {"a": ("numpy", MS)})], [result("w", {"a": ("numpy", MS)})], env))
    assert d.environment_differences == (
        "cpu: 'Test CPU 3000' -> 'Other CPU'",
        "env_vars.XLA_FLAGS: None -> '--xla_cpu_multi_thread_eigen=false'",
        "packages.jax: '0.10.2' -> '0.10.3'",
    )


def test_cli_diff_prints_verdicts_warns_about_the_environment_and_fails_ci_on_regression(tmp_path):
    path = str(tmp_path / "r.db")
    with open_store(path) as s:
        _runs(s, [result("w", {"steady": ("numpy", MS), "sleepy": ("numpy", MS)}, seed=1)],
              [result("w", {"steady": ("numpy", MS), "sleepy": ("numpy", 2 * MS)}, seed=2)],
              {**ENV, "packages": {**ENV["packages"], "torch": "2.14.0"}})
    p = _cli("diff", "1", "2", "--db", path)
    assert p.returncode == 0, p.stderr
    lines = p.stdout.splitlines()
    assert lines[0].startswith("run 1 (") and " ->  run 2 (" in lines[0]
    assert "warning: the environments differ (1)" in lines[1]
    assert lines[2].strip() == "packages.torch: '2.13.0+cpu' -> '2.14.0'"
    sleepy = next(line for line in lines if " sleepy " in line)
    steady = next(line for line in lines if " steady " in line)
    assert sleepy.split()[-1] == "regression" and "<0.001" in sleepy
    assert 90 < float(sleepy.split("%")[0].split("+")[-1]) < 110  # "+98.4% [+94.9%, +101.9%]"
    assert steady.split()[-2:] == ["no", "change"]
    assert lines[-1].startswith("1 regression, 1 no change")

    p = _cli("diff", "latest~1", "latest", "--db", path, "--fail-on-regression")
    assert p.returncode == 1 and "regression" in p.stdout
    p = _cli("diff", "--db", path, "--json", "--fail-on-regression", "--min-effect", "150%")
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["min_effect"] == 1.5 and doc["counts"]["regression"] == 0 and doc["changes"][1]["verdict"] == "no change"


def _noisy(clock: FakeClock, seconds: float, seed: int):
    """A call of ``seconds`` on the fake clock, with 5% seeded noise."""
    rng = np.random.default_rng(seed)

    def call(x):
        clock.now += seconds * float(rng.lognormal(0.0, 0.05))
        return x * 2

    return call


def test_a_slowed_candidate_timed_by_compare_is_a_regression(store):
    """The whole path through the library: compare -> store two runs -> diff (no `levelbench run`), on the
    fake clock: ``sleepy`` 3x slower in the second run is a regression of 3x; ``steady`` is no change."""
    x = np.ones(100)
    runs = []
    for i, delay in enumerate((0.002, 0.006)):
        clock = FakeClock()
        c = levelbench.compare({"steady": (_noisy(clock, 0.002, 2 * i), (x,)),
                                "sleepy": (_noisy(clock, delay, 2 * i + 1), (x,))},
                               budget=0.4, peak=False, environment=False, title="sleepy", timer=clock)
        runs.append(record(store, [WorkloadResult("sleepy", {"seed": 0}, "ok", c)]))
    d = diff_runs(store.run(runs[0]), store.run(runs[1]))
    by = {c.candidate: c for c in d.changes}
    assert by["sleepy"].verdict == "regression" and by["sleepy"].ratio.contains(3.0)
    assert by["sleepy"].ratio.lower > 2.5 and by["sleepy"].ratio.upper < 3.5
    assert by["steady"].verdict == "no change" and by["steady"].ratio.contains(1.0)


def test_diff_without_runs_named_pairs_the_latest_with_the_latest_run_of_the_same_workloads(tmp_path):
    path = str(tmp_path / "r.db")
    with open_store(path) as s:
        record(s, [result("test_a.py::test_x::f", {"f": ("numpy", MS)}, seed=1)])      # 1
        record(s, [result("test_a.py::test_x::f", {"f": ("numpy", MS)}, seed=2)])      # 2: what 4 follows
        record(s, [result("test_b.py::test_y::g", {"g": ("numpy", 3 * MS)}, seed=3)])  # 3: other tests
        record(s, [result("test_a.py::test_x::f", {"f": ("numpy", 2 * MS)}, seed=4)])  # 4
        latest = s.run("latest")
        assert previous_run(s, latest).id == 2 and previous_run(s, s.run(3)) is None
    p = _cli("diff", "--db", path, "--fail-on-regression")
    assert p.returncode == 1, p.stderr
    assert p.stdout.splitlines()[0].startswith("run 2 (") and " ->  run 4 (" in p.stdout.splitlines()[0]
    assert "test_a.py::test_x::f" in p.stdout and "missing" not in p.stdout and "regression" in p.stdout
    # A run named by itself is still compared with the latest, as before.
    p = _cli("diff", "3", "--db", path, "--json")
    assert json.loads(p.stdout)["before"] == 3 and json.loads(p.stdout)["after"] == 4


def test_the_runs_diff_compares_are_a_library_call(tmp_path):
    """`runs_to_diff` is what ``levelbench diff [A [B]]`` compares, without the command line."""
    with open_store(tmp_path / "r.db") as s:
        record(s, [result("test_a.py::test_x::f", {"f": ("numpy", MS)}, seed=1)])      # 1
        record(s, [result("test_b.py::test_y::g", {"g": ("numpy", MS)}, seed=2)])      # 2: other tests
        record(s, [result("test_a.py::test_x::f", {"f": ("numpy", MS)}, seed=3)])      # 3
        assert [r.id for r in runs_to_diff(s)] == [1, 3]
        assert [r.id for r in runs_to_diff(s, "latest~1")] == [2, 3]
        assert [r.id for r in runs_to_diff(s, 1, 2)] == [1, 2]
        with pytest.raises(StoreError, match=r"expected an earlier 'run' run of the same workloads as run 2 "
                                             r"\(test_b.py::test_y::g\) in .*, got none: .* levelbench diff 1 2"):
            runs_to_diff(s, after=2)


def test_diff_without_runs_named_never_pairs_other_kinds_or_parameters(tmp_path):
    path = str(tmp_path / "r.db")
    with open_store(path) as s:
        record(s, [result("w", {"a": ("numpy", MS)}, params={"n": 1}, seed=1)])
        record(s, [result("w", {"a": ("numpy", MS)}, params={"n": 2}, seed=2)])  # same workload, other parameters
        s.save_comparison(result("w", {"a": ("numpy", MS)}, params={"n": 2}, seed=3).comparison, label="w")
    p = _cli("diff", "--db", path)
    assert p.returncode == 2 and p.stdout == ""
    assert p.stderr.strip() == (
        f"levelbench diff: expected an earlier 'compare' run of the same workloads as run 3 (w) in {path}, got none: "
        "record another one, or name the two runs, e.g. levelbench diff 2 3")
    with open_store(path) as s:
        record(s, [result("w", {"a": ("numpy", MS)}, params={"n": 2}, seed=4)])
    p = _cli("diff", "--db", path, "--json")
    assert p.returncode == 0, p.stderr
    assert (json.loads(p.stdout)["before"], json.loads(p.stdout)["after"]) == (2, 4)  # not 1 (n=1), not 3 (a compare)
