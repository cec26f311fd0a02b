"""The pytest plugin's pytest-benchmark habits, in real inner pytest sessions (pytester): saving only
when asked and one run per session, --levelbench-disable, --levelbench-json, --levelbench-compare
with --levelbench-compare-fail, and the usage errors of each."""

import json
import os

import pytest

from levelbench.store import open_store

pytest_plugins = ["pytester"]

# `work` and `other` work on a fake clock, passed as timer=, with a little seeded noise: what the sessions
# assert on their times holds on any machine. The time of `work` comes from the environment, so a
# second session can be made slower.
TESTS = """
import os
import random

import numpy as np


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


clock = Clock()
noise = random.Random(0)


def work():
    clock.now += float(os.environ.get("LB_DELAY", "0.001")) * noise.lognormvariate(0, 0.02)
    return np.ones(3)


def other():
    clock.now += 0.001 * noise.lognormvariate(0, 0.02)
    return np.ones(3)


def test_measure(levelbench):
    assert levelbench.measure(work, budget=0.15, timer=clock).median > 0.0005


def test_compare(levelbench):
    c = levelbench.compare({"work": work, "other": other}, budget=0.15, peak=False, timer=clock)
    assert c.ratio("work", "other").upper < 100
"""


@pytest.fixture
def suite(pytester, _peak_cache, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", _peak_cache)  # with a stand-in practical peak (conftest)
    monkeypatch.delenv("LB_DELAY", raising=False)
    return pytester


def _runs(db):
    with open_store(db, create=False) as store:
        return [store.run(r.id) for r in store.runs()]


def test_autosave_and_the_ini_option_record_one_run_per_session(suite):
    suite.makepyfile(test_timing=TESTS)
    db = os.environ["LEVELBENCH_DB"]
    suite.runpytest("--levelbench-autosave").assert_outcomes(passed=2)
    suite.makeini("[pytest]\nlevelbench_autosave = true\n")
    result = suite.runpytest()
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([f"2 result(s) recorded in {db} as run 2"])
    runs = _runs(db)
    assert [(r.id, r.kind, r.status, len(r.results)) for r in runs] == [(1, "pytest", "ok", 2), (2, "pytest", "ok", 2)]
    assert [r.workload for r in runs[1].results] == ["test_timing.py::test_measure::work",
                                                    "test_timing.py::test_compare::work+other"]
    assert runs[1].results[1].comparison.names == ["work", "other"]


def test_a_run_name_with_a_slash_written_with_equals_is_a_name(suite):
    """Probe defect 28: ``--levelbench-save=feature/x`` (a branch name) was refused as a test path."""
    suite.makepyfile(test_timing=TESTS)
    result = suite.runpytest("--levelbench-save=feature/x")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*label 'feature/x'*"])
    (run,) = _runs(os.environ["LEVELBENCH_DB"])
    assert run.label == "feature/x"


def test_two_results_of_one_label_in_a_test_are_both_kept(suite):
    suite.makepyfile(test_twice=TESTS.split("def test_measure")[0] + """
def test_twice(levelbench):
    levelbench.measure(work, budget=0)
    levelbench.measure(work, budget=0)
""")
    suite.runpytest("--levelbench-save").assert_outcomes(passed=1)
    (run,) = _runs(os.environ["LEVELBENCH_DB"])
    assert [r.workload for r in run.results] == ["test_twice.py::test_twice::work", "test_twice.py::test_twice::work #2"]


def test_disable_calls_each_function_once_untimed_and_saves_nothing(suite, tmp_path):
    calls = tmp_path / "calls.txt"
    suite.makepyfile(test_plain=f"""
import numpy as np

CALLS = {str(calls)!r}


def counted(name):
    def call(x, scale=1.0):
        with open(CALLS, "a") as f:
            f.write(name + "\\n")
        return np.asarray(x) * scale
    return call


def broken():
    raise RuntimeError("the benchmark code is broken")


def test_measure(levelbench):
    m = levelbench.measure(counted("m"), [1.0, 2.0], scale=3.0, budget=60, label="scaled")
    assert m.median < 1e-9 and m.median > 1e9 and m.ci.upper < 0 and m.median * 1e3 < 1
    assert not m.measured and m.label == "scaled" and m.samples == () and m.findings == ()
    assert m.output.tolist() == [3.0, 6.0]


def test_compare(levelbench):
    c = levelbench.compare({{"a": (counted("a"), ([1.0],)), "b": (counted("b"), ([2.0],))}}, budget=60)
    r = c.ratio("a", "b")
    assert r < 0.5 and r > 2 and r.upper < 0.5 and r.lower > 2 and r.contains(7)
    assert c.verdict("a") == "not measured" and c.outputs["a"].tolist() == [1.0]
    assert levelbench.results == [c]


def test_broken(levelbench):
    levelbench.measure(broken)
""")
    result = suite.runpytest("--levelbench-disable", "--levelbench-save=x", "--levelbench-json", str(tmp_path / "s.json"))
    result.assert_outcomes(passed=2, failed=1)
    result.stdout.fnmatch_lines(["*RuntimeError: the benchmark code is broken*",
                                 "3 timing test(s) ran once, untimed (--levelbench-disable)"])
    assert sorted(calls.read_text().split()) == ["a", "b", "m"]  # once each: no calibration, no samples
    assert not os.path.exists(os.environ["LEVELBENCH_DB"])
    assert json.loads((tmp_path / "s.json").read_text())["results"] == []


def test_json_writes_the_session_as_a_levelbench_run(suite, tmp_path):
    suite.makepyfile(test_timing=TESTS)
    out = tmp_path / "session.json"
    result = suite.runpytest(f"--levelbench-json={out}")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines([f"results written to {out}"])
    doc = json.loads(out.read_text())
    assert (doc["format"], doc["kind"], doc["id"]) == ("levelbench.run", "pytest", 0)  # 0: not saved
    assert [r["workload"] for r in doc["results"]] == ["test_timing.py::test_measure::work",
                                                       "test_timing.py::test_compare::work+other"]
    samples = doc["results"][0]["comparison"]["measurements"]["work"]["samples"]
    assert len(samples) >= 3 and min(samples) > 0.0009
    assert not os.path.exists(os.environ["LEVELBENCH_DB"])


def test_compare_fail_fails_a_slower_session_and_prints_the_table(suite, monkeypatch):
    suite.makepyfile(test_timing=TESTS)
    suite.runpytest("--levelbench-save=before").assert_outcomes(passed=2)

    # `work` 4x slower on the fake clock (+300%); `other` unchanged.
    monkeypatch.setenv("LB_DELAY", "0.004")
    result = suite.runpytest("--levelbench-compare", "--levelbench-compare-fail=median:100%")
    result.assert_outcomes(passed=2)
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    result.stdout.fnmatch_lines([
        "run 1 (*)  ->  this session (not saved)",
        "workload*candidate*before*after*change ?95% CI?*p*verdict",
        "test_timing.py::test_measure::work * work * regression",
        "FAILED: 2 regression(s) against run 1 (*) (--levelbench-compare-fail=median:100%): "
        "test_timing.py::test_measure::work work +*",
    ])
    assert len(_runs(os.environ["LEVELBENCH_DB"])) == 1  # comparing saves nothing

    # Without --levelbench-compare-fail the table is shown and the session passes.
    result = suite.runpytest("--levelbench-compare=1")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["test_timing.py::test_compare::work+other * work * regression"])
    assert "FAILED:" not in result.stdout.str()


def test_compare_picks_the_latest_run_of_the_same_tests_and_skips_its_own(suite):
    suite.makepyfile(test_timing=TESTS)
    suite.runpytest("--levelbench-save=timing").assert_outcomes(passed=2)
    suite.makepyfile(test_unrelated="""
import time

def test_sleep(levelbench):
    levelbench.measure(time.sleep, 0.001, budget=0)
""")
    suite.runpytest("test_unrelated.py", "--levelbench-save").assert_outcomes(passed=1)
    result = suite.runpytest("test_timing.py", "--levelbench-save", "--levelbench-compare")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["run 1 (*)  ->  this session (run 3)"])

    result = suite.runpytest("test_unrelated.py", "--levelbench-compare")
    result.stdout.fnmatch_lines(["run 2 (*)  ->  this session (not saved)"])


def test_compare_with_nothing_saved_says_so_and_passes(suite):
    suite.makepyfile(test_timing=TESTS)
    result = suite.runpytest("--levelbench-compare", "--levelbench-compare-fail=median:5%")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["not compared: no results database at *: record runs *"])
    suite.runpytest("--levelbench-save").assert_outcomes(passed=2)
    suite.makepyfile(test_timing=TESTS.replace("def test_", "def test_renamed_"))
    result = suite.runpytest("--levelbench-compare", "--levelbench-compare-fail=median:5%")
    assert result.ret == pytest.ExitCode.OK
    result.stdout.fnmatch_lines(["not compared: no earlier 'pytest' run of these tests in * (save one with*"])


@pytest.mark.parametrize("args, message", [
    (["--levelbench-compare-fail=median:5%"],
     "*--levelbench-compare-fail=median:5% needs a run to compare with, got no --levelbench-compare: add*"),
    (["--levelbench-compare", "--levelbench-compare-fail=mean:5%"],
     "*expected median:PERCENT, e.g. --levelbench-compare-fail=median:5%, got 'mean:5%'*"),
    (["--levelbench-compare=yesterday"], "*expected a run id (3), latest or latest~N, got 'yesterday'*"),
    (["--levelbench-compare=7"], "*--levelbench-compare=7: no results database at *"),
    (["--levelbench-save", "test_timing.py"],
     "*expected a run name, got 'test_timing.py', which looks like a test path taken as the name: write "
     "--levelbench-save=test_timing.py with '='*"),
    (["--levelbench-json=no/such/dir/out.json"],
     "*--levelbench-json: expected a file path in an existing directory, got 'no/such/dir/out.json': create no*"),
])
def test_contradictions_and_bad_values_are_usage_errors(suite, args, message):
    suite.makepyfile(test_timing=TESTS)
    result = suite.runpytest(*args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert not os.path.exists(os.environ["LEVELBENCH_DB"])


@pytest.mark.parametrize("content, message", [
    (None, "*--levelbench-compare=1: no results database at *: record runs with `levelbench run` first, or set "
           "LEVELBENCH_DB to the database's path"),
    ("notes\n", "*--levelbench-compare=1: expected a levelbench results database, got a text file starting 'notes' "
                "at *: set LEVELBENCH_DB to another path, or move that file away*"),
])
def test_a_database_problem_names_levelbench_db_not_an_option_pytest_lacks(suite, content, message):
    # Before: "pass --db PATH" / "pass --db with another path", but pytest has no --db.
    if content is not None:
        with open(os.environ["LEVELBENCH_DB"], "w") as f:
            f.write(content)
    suite.makepyfile(test_timing=TESTS)
    result = suite.runpytest("--levelbench-compare=1")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines([message])
    assert "--db" not in result.stderr.str()
