"""The pytest plugin as users meet it: inner test suites run with pytester.

The plugin is registered through the ``pytest11`` entry point, so every inner run loads it as
any pytest run of a project with levelbench installed does.
"""

import os
import subprocess
import sys

import pytest

pytest_plugins = ["pytester"]

# `fast` and `slow` work on a fake clock, passed as timer=: their times (1 ms, 4 ms) are exact, so what the
# inner tests assert on ratios holds on any machine, however loaded.
WORKLOADS = """
import numpy as np


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


clock = Clock()


def fast():
    clock.now += 0.001
    return np.ones(3)


def slow():  # deliberately 4x slower than fast, with the same output
    clock.now += 0.004
    return np.ones(3)
"""

RATIOS = WORKLOADS + """

def test_fast_is_not_slower(levelbench):
    assert levelbench.compare({"fast": fast, "slow": slow}, timer=clock).ratio("fast", "slow").upper < 1.2


def test_slow_is_not_slower(levelbench):
    assert levelbench.compare({"slow": slow, "fast": fast}, timer=clock).ratio("slow", "fast").upper < 1.2


def test_plain():
    assert True
"""


@pytest.fixture
def suite(pytester, _peak_cache, monkeypatch):
    """A pytester whose inner runs share one levelbench cache (holding a stand-in practical peak: never measured)."""
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", _peak_cache)  # with a stand-in practical peak (conftest)
    return pytester


def test_a_ratio_assertion_passes_and_a_slower_candidate_fails_with_the_table(suite):
    suite.makepyfile(test_ratios=RATIOS)
    result = suite.runpytest("--levelbench-budget", "0.3")
    result.assert_outcomes(passed=2, failed=1)
    out = result.stdout.str()
    failure = out[out.index("test_slow_is_not_slower ___"):out.index("= levelbench =")]
    result.stdout.fnmatch_lines([
        "E       assert slow/fast time ratio upper bound * < 1.2",
        "E         slow takes *x the time of fast, 95% CI * .. *",
        "E         candidate*steady median*95% CI*ratio to fast*verdict",
        "E         slow (numpy)*slower",
        "E         fast (numpy)*baseline",
    ])
    assert "levelbench: what this test measured" in failure  # the full table and findings beside the failure
    assert "test_fast_is_not_slower" not in failure
    result.stdout.fnmatch_lines([
        "*= levelbench =*",
        "test_ratios.py::test_fast_is_not_slower: compare slow/fast * slower",
        "test_ratios.py::test_slow_is_not_slower: compare fast/slow * faster",
    ])


INTERFERENCE = __import__("pathlib").Path(__file__).parent / "workloads" / "interference.py"


def test_the_fixture_reports_interference_in_the_failure_and_the_summary(suite):
    """The fixture's compare in one process finds LB305 on interference.py's FakeSpin (the pair on a fake
    clock: exact ratios, whatever the load) and prints it beside the failure and in the session summary."""
    suite.makepyfile(test_pair=f"""
import importlib.util

spec = importlib.util.spec_from_file_location("pair", {str(INTERFERENCE)!r})
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)


def test_in_process(levelbench, monkeypatch):
    fake = m.FakeSpin(monkeypatch)
    c = levelbench.compare(fake.candidates(), budget=3, min_rounds=10, peak=False, timer=fake.clock)
    assert any(f.code == "LB305" for f in c.findings)
    assert c.ratio("spinner") < 0  # fails, to show the message
""")
    result = suite.runpytest()
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["E  * LB305 candidates slow each other down in one process: back to back, spinner "
                                 "reads 0.025x victim instead of 0.05x (-50%)*",
                                 "test_pair.py::test_in_process: compare spinner/victim * findings LB305"])


@pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2, reason="interference needs 2 cores")
@pytest.mark.wallclock
def test_the_fixture_reports_interference_and_isolates_builders(suite, quiet_machine):
    """On real threads and a real clock, the fixture's compare finds LB305 in one process and prints it in
    the failure and the summary; builders are isolated and get none."""
    suite.makepyfile(test_pair=f"""
import importlib.util

spec = importlib.util.spec_from_file_location("pair", {str(INTERFERENCE)!r})
m = importlib.util.module_from_spec(spec)
spec.loader.exec_module(m)


def test_in_process(levelbench):
    c = levelbench.compare({{"victim": m.victim(), "spinner": m.spinner()}}, budget=3, min_rounds=10, peak=False)
    assert any(f.code == "LB305" for f in c.findings)
    assert c.ratio("spinner") < 0  # fails, to show the message


def test_isolated(levelbench):
    c = levelbench.compare({{"a": {str(INTERFERENCE)!r} + ":plus_one", "b": {str(INTERFERENCE)!r} + ":plus_one"}},
                           isolate=True, budget=0.3, peak=False)
    assert c.isolation.mode == "workers" and not [f for f in c.findings if f.code == "LB305"]
""")
    result = suite.runpytest()
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["E  * LB305 candidates slow each other down in one process*",
                                 "test_pair.py::test_in_process: compare spinner/victim * findings LB305"])


def test_results_are_recorded_in_the_store_only_when_asked_as_one_run_per_session(suite):
    store_module = pytest.importorskip("levelbench.store")
    suite.makepyfile(test_record=WORKLOADS + """

def test_one_of_each(levelbench):
    levelbench.measure(fast, budget=0)
    levelbench.compare({"fast": fast, "slow": slow}, budget=0, peak=False)
""")
    db = os.environ["LEVELBENCH_DB"]
    result = suite.runpytest()
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["not saved: --levelbench-save*or --levelbench-autosave records the session as one run"])
    assert not os.path.exists(db)  # nothing written, not even an empty database

    result = suite.runpytest("--levelbench-save=baseline")
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines([f"2 result(s) recorded in {db} as run 1, label 'baseline'"])
    with store_module.open_store(db) as store:
        (run,) = store.runs()
        stored = store.run(run.id)
    assert (run.kind, run.label, run.status) == ("pytest", "baseline", "ok")
    assert [r.workload for r in stored.results] == ["test_record.py::test_one_of_each::fast",
                                                   "test_record.py::test_one_of_each::fast+slow"]


def test_levelbench_budget_overrides_the_tests_own(suite):
    suite.makepyfile(test_budget=WORKLOADS + """

import random

noise = random.Random(0)


def noisy():
    clock.now += 0.001 * noise.lognormvariate(0, 0.5)


def test_budget(levelbench):
    assert levelbench.budget == 0.2
    m = levelbench.measure(noisy, budget=60, rel_ci=1e-9, timer=clock)  # a CI target never reached: runs for the budget
    assert not m.target_reached
    assert 0.2 <= m.total_time < 1, m.total_time  # the fake clock's seconds: 60 without the override
""")
    suite.runpytest("--levelbench-budget", "0.2").assert_outcomes(passed=1)


def test_a_bad_budget_is_refused_with_the_expected_form(suite):
    suite.makepyfile(test_x="def test_x(): pass")
    result = suite.runpytest("--levelbench-budget", "soon")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*expected seconds >= 0, e.g. --levelbench-budget 0.5, got 'soon'*"])


def test_levelbench_skip_skips_the_timing_tests_and_the_marker_selects_them(suite):
    suite.makepyfile(test_ratios=RATIOS)
    result = suite.runpytest("--levelbench-skip", "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines(["SKIPPED * test_ratios.py: levelbench timing test skipped (--levelbench-skip)"])
    assert "= levelbench =" not in result.stdout.str()
    suite.runpytest("-m", "not levelbench").assert_outcomes(passed=1, deselected=2)


def test_a_run_without_timing_tests_shows_nothing_of_levelbench(suite):
    suite.makepyfile(test_plain="def test_plain():\n    assert 1 + 1 == 2\n")
    result = suite.runpytest()
    result.assert_outcomes(passed=1)
    lines = [line for line in result.stdout.lines
             if "levelbench" in line and not line.startswith(("plugins:", "rootdir:"))]
    assert lines == []


def test_pytest_benchmark_works_in_the_same_run(suite):
    pytest.importorskip("pytest_benchmark")
    suite.makepyfile(test_both=WORKLOADS + """

def test_with_benchmark(benchmark):
    assert benchmark(sum, range(100)) == 4950


def test_with_levelbench(levelbench):
    assert abs(levelbench.measure(fast, budget=0, timer=clock).median - 0.001) < 1e-12
""")
    result = suite.runpytest("--benchmark-max-time=0.05", "--benchmark-min-rounds=1")
    result.assert_outcomes(passed=2)
    result.stdout.fnmatch_lines(["*benchmark: 1 tests*", "*test_with_benchmark*", "*= levelbench =*",
                                 "test_both.py::test_with_levelbench: measure fast median *"])


@pytest.mark.slow
def test_under_xdist_timing_is_skipped_with_a_notice(suite):
    pytest.importorskip("xdist")
    suite.makepyfile(test_ratios=RATIOS)
    result = suite.runpytest_subprocess("-n", "2", "-rs")
    result.assert_outcomes(passed=1, skipped=2)
    result.stdout.fnmatch_lines([
        "*= levelbench =*",
        "2 timing test(s) skipped: pytest-xdist runs them in parallel workers *pytest -m levelbench -p no:xdist",
        "SKIPPED * test_ratios.py: levelbench: timing disabled under pytest-xdist: 2 parallel workers share the CPUs*",
    ])


def test_loading_the_plugin_imports_nothing_heavy():
    code = ("import sys, levelbench.pytest_plugin\n"
            "print(sorted(m for m in ('jax', 'torch', 'IPython', 'levelbench.pytest_plugin.fixture') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"
