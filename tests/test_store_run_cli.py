"""End to end through ``levelbench run``: two runs then ``levelbench diff``, a sweep, and Ctrl-C mid-run.

The workload is a user file (``FILE.py:SLEEPY``) whose ``sleepy`` candidate sleeps for
``$LB_TEST_SLEEP`` seconds per call, so a run can be deliberately slowed.
"""

from __future__ import annotations

import os
import signal
import subprocess
import textwrap
import time

import pytest

from levelbench.report import sections
from levelbench.store import StoreError, open_store
from conftest import levelbench_argv, levelbench_cli

WORKLOAD = textwrap.dedent('''
    import os
    import time

    import numpy as np

    from levelbench import Candidate
    from levelbench.workloads import Param, Workload


    def _sleeper(seconds):
        def call(x):
            time.sleep(seconds)
            return x * 2
        return call


    def build(n: int, seed: int):
        x = np.random.default_rng(seed).standard_normal(n)
        slowed = float(os.environ.get("LB_TEST_SLEEP", "0.002"))
        return {"steady": Candidate(_sleeper(0.002), (x,)), "sleepy": Candidate(_sleeper(slowed), (x,))}


    SLEEPY = Workload("sleepy", "two sleeping candidates, one slowed by $LB_TEST_SLEEP", build,
                      params=[Param("n", 100, int, "array length")], baseline="steady")
''')


@pytest.fixture(scope="module")
def peak_cache(_peak_cache):
    # The session's cache, holding a stand-in practical peak (conftest): never measured here.
    return _peak_cache


@pytest.fixture
def workdir(tmp_path, monkeypatch, peak_cache):
    (tmp_path / "wl.py").write_text(WORKLOAD)
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("LEVELBENCH_CACHE_DIR", peak_cache)
    monkeypatch.setenv("LEVELBENCH_DB", str(tmp_path / "results.db"))
    return tmp_path


def levelbench(*args: str, sleep: float = 0.002) -> subprocess.CompletedProcess:
    return levelbench_cli(*args, env={"LB_TEST_SLEEP": str(sleep), "COLUMNS": "160"})


def test_two_runs_then_diff_reports_the_slowed_candidate_and_fails_ci(workdir):
    for sleep in (0.002, 0.006):
        p = levelbench("run", "--workload", "wl.py:SLEEPY", "--budget", "0.5", "--in-process", "--db", "results.db",
                       sleep=sleep)
        assert p.returncode == 0, p.stdout + p.stderr

    p = levelbench("diff", "latest~1", "latest", "--db", "results.db", "--fail-on-regression")
    assert p.returncode == 1, p.stdout + p.stderr
    lines = p.stdout.splitlines()
    sleepy = next(line for line in lines if " sleepy " in line)
    # the verdict's rule is p < 0.05 and >= 5% effect; how small p gets depends on how many samples
    # the CI target needed, so assert the rule, not a particular p
    p_value = sleepy.split()[-2]
    assert sleepy.split()[-1] == "regression"
    assert p_value == "<0.001" or float(p_value) < 0.05, sleepy
    assert any(" steady " in line for line in lines)  # its verdict is left to the noise of this machine
    assert "regression" in lines[-1]
    assert "warning: the environments differ" not in p.stdout  # same machine, same versions, same flags

    history = levelbench("history", "--db", "results.db")
    assert history.returncode == 0 and len(history.stdout.splitlines()) == 3


def test_a_sweep_is_recorded_as_one_run_and_reported_as_a_sweep(workdir):
    p = levelbench("run", "--workload", "wl.py:SLEEPY", "--n", "10,100,1000", "--budget", "0.2", "--in-process")
    assert p.returncode == 0, p.stdout + p.stderr
    with open_store() as store:
        (only,) = store.runs()
        run = store.run(only.id)
    assert only.workload_counts == {"wl.py:SLEEPY": 3}
    (section,) = sections([run])
    assert (section.axis, [r.params["n"] for r in section.points]) == ("n", [10, 100, 1000])


def test_ctrl_c_mid_run_keeps_the_finished_workloads(workdir):
    proc = subprocess.Popen(
        [*levelbench_argv("run"), "--workload", "wl.py:SLEEPY", "--n", ",".join(map(str, range(1, 30))),
         "--budget", "0.3", "--in-process", "--db", "results.db"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env={**os.environ, "LB_TEST_SLEEP": "0.002"})
    finished = 0
    deadline = time.monotonic() + 120
    while finished < 2 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.2)
        try:
            with open_store("results.db", create=False) as store:  # reading while it writes
                finished = sum(r.status == "ok" for r in store.run("latest").results)
        except StoreError:
            pass  # not created yet
    assert finished >= 2, "the run never got going"
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, out + err
    assert "Traceback" not in err

    with open_store("results.db", create=False) as store:
        run = store.run("latest")
    assert run.status == "interrupted"
    statuses = [r.status for r in run.results]
    ok = statuses.count("ok")
    assert ok >= finished and ok < 29
    # the rest: the workload that was running (interrupted), then the ones never started, recorded as not run
    assert statuses[:ok] == ["ok"] * ok and set(statuses[ok:]) <= {"interrupted", "skipped"}
    assert len(statuses) == 29 and statuses.count("interrupted") <= 1
    assert [r.params["n"] for r in run.results[:ok]] == list(range(1, ok + 1))
