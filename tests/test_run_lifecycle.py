"""``levelbench run`` and a pytest session (``--levelbench-save``) record their runs through one lifecycle
(`levelbench._recording.Recording`): a Ctrl-C stores both runs alike, ``interrupted`` with what
finished kept, including the result that was being written when the signal came. The pytest side is
a real inner session (pytester); the ``levelbench run`` side is `run_workloads`, the call the CLI makes."""

import json
import os
import signal
from pathlib import Path

import pytest

from levelbench import run_workloads
from levelbench._recording import Recording
from levelbench._results.workload import WorkloadResult
from levelbench.store import Store, open_store, record_imported

pytest_plugins = ["pytester"]

SIMPLE = Path(__file__).parent / "workloads" / "simple.py"

# `work` runs on a fake clock (timer=), so the session's measurements take no real time.
SESSION = """
import numpy as np


class Clock:
    now = 0.0

    def __call__(self):
        return self.now


clock = Clock()


def work():
    clock.now += 0.001
    return np.ones(3)


def test_a_measured(levelbench):
    levelbench.measure(work, budget=0.05, timer=clock)


def test_b_stopped(levelbench):
    {stop}


def test_c_never_run(levelbench):
    levelbench.measure(work, budget=0.05, timer=clock)
"""


# A sweep whose second point is stopped by Ctrl-C (raised where the user's code runs, as the signal would).
STOPS = """
import numpy as np

import levelbench
from levelbench.workloads import Param, Workload


def build(point, seed):
    if point == 2:
        raise KeyboardInterrupt
    x = np.ones(3)
    return {"double": levelbench.Candidate(lambda x: x * 2, (x,)), "sum": levelbench.Candidate(lambda x: x + x, (x,))}


STOPS = Workload("stops", "stopped at its second point", build, params=[Param("point", 1, int, "which point")],
                 baseline="double")
"""


@pytest.fixture
def ends(monkeypatch):
    """Every `Recording.end` that stored a run: (the run's kind, its outcome)."""
    seen = []
    end = Recording.end

    def spy(self):
        outcome = end(self)
        if self.store is not None:
            seen.append((self.store.run(self.run_id).kind, outcome))
        return outcome

    monkeypatch.setattr(Recording, "end", spy)
    return seen


def _stored(db, run_id):
    run = open_store(db, create=False).run(run_id)
    return run.status, run.error, [(r.workload, r.status) for r in run.results]


def _session(pytester, stop, *args):
    pytester.makepyfile(test_timing=SESSION.replace("{stop}", stop))
    return pytester.runpytest("--levelbench-save", *args, no_reraise_ctrlc=True)  # the inner Ctrl-C is the test's


def test_ctrl_c_between_tests_stores_the_session_as_levelbench_run_stores_its_run(pytester, _peak_cache, tmp_path,
                                                                                    ends):
    written = tmp_path / "session.json"
    result = _session(pytester, "raise KeyboardInterrupt", "--levelbench-json", str(written))  # as Ctrl-C raises
    assert result.ret == pytest.ExitCode.INTERRUPTED
    assert json.loads(written.read_text())["status"] == "interrupted"  # was "ok"
    result.stdout.fnmatch_lines(["1 result(s) recorded in * as run 1 (interrupted)"])
    db = os.environ["LEVELBENCH_DB"]
    status, error, results = _stored(db, 1)
    assert (status, error) == ("interrupted", "interrupted (Ctrl-C)")
    assert results == [("test_timing.py::test_a_measured::work", "ok")]  # test_c never ran: not in the run

    # levelbench run, Ctrl-C while its second workload is being built
    workloads = tmp_path / "stops.py"
    workloads.write_text(STOPS)
    outcome = run_workloads([f"{workloads}:STOPS"], {"point": [1, 2, 3]}, budget=0.1, in_process=True,
                            db=str(tmp_path / "r.db"))
    status, error, results = _stored(tmp_path / "r.db", outcome.run_id)
    assert (status, error) == ("interrupted", "interrupted (Ctrl-C)")
    statuses = [s for _, s in results]
    assert statuses[0] == "ok" and len(statuses) == 3, outcome.results[0].error
    assert set(statuses[1:]) <= {"interrupted", "skipped"}  # the one stopped, the one never started
    assert [kind for kind, _ in ends] == ["pytest", "run"]  # both ended through the one lifecycle


def test_ctrl_c_ends_a_saved_measurement_and_an_import_as_it_ends_levelbench_run(tmp_path):
    """The store's own ways of recording a run (`Store.recording`, under ``measure``/``compare``'s
    ``save=``, and `record_imported`) end it in the same words as `Recording` when Ctrl-C stops them:
    ``interrupted (Ctrl-C)``, with what was recorded before kept."""
    workloads = tmp_path / "stops.py"
    workloads.write_text(STOPS)
    outcome = run_workloads([f"{workloads}:STOPS"], {"point": [1, 2]}, budget=0.1, in_process=True,
                            db=str(tmp_path / "r.db"))
    store = open_store(tmp_path / "r.db", create=False)
    first = WorkloadResult("first", {}, "ok")
    with pytest.raises(KeyboardInterrupt):
        with store.recording(kind="compare") as saved:
            store.add_result(saved, first)
            raise KeyboardInterrupt  # as Ctrl-C raises it

    def benchmarks():
        yield first
        raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        record_imported(store, {"kind": "pytest-benchmark"}, benchmarks())
    imported = max(r.id for r in store.runs())

    ends = {name: _stored(tmp_path / "r.db", run_id)
            for name, run_id in (("run", outcome.run_id), ("saved", saved), ("imported", imported))}
    assert {name: status for name, (status, _, _) in ends.items()} == dict.fromkeys(ends, "interrupted")
    assert ends["run"][1] == ends["saved"][1] == "interrupted (Ctrl-C)"
    assert ends["imported"][1] == "interrupted (Ctrl-C): the import stopped before its last benchmark"
    assert ends["saved"][2] == ends["imported"][2] == [("first", "ok")]


def test_runs_stored_in_the_words_of_before_still_read(tmp_path):
    """Before the store's runs and `Recording` shared `stopped_by`, `Store.recording` stored a Ctrl-C
    as ``interrupted`` with the error ``interrupted`` and an import stopped by it as ``failed``."""
    store = open_store(tmp_path / "r.db")
    older = {}
    for kind, status, error in (("compare", "interrupted", "interrupted"),
                                ("pytest-benchmark", "failed", "the import stopped before its last benchmark")):
        older[kind] = store.begin_run(kind=kind)
        store.end_run(older[kind], status, error)
    assert [(r.kind, r.status, r.error) for r in store.runs()] == [
        ("compare", "interrupted", "interrupted"),
        ("pytest-benchmark", "failed", "the import stopped before its last benchmark")]
    assert store.run(older["compare"]).status == "interrupted"


def test_ctrl_c_while_a_result_is_written_keeps_it_in_the_session_and_in_levelbench_run(pytester, _peak_cache,
                                                                                        tmp_path, monkeypatch, ends,
                                                                                        sigint_is_ctrl_c):
    """A real SIGINT sent from inside the store's write of the first result: the write completes, then the
    interrupt stops the rest, in a pytest session and in `levelbench run` alike."""
    add_result = Store.add_result
    sent = []

    def interrupted_while_writing(self, run_id, result):
        if not sent:
            sent.append(run_id)
            os.kill(os.getpid(), signal.SIGINT)
        return add_result(self, run_id, result)

    monkeypatch.setattr(Store, "add_result", interrupted_while_writing)
    result = _session(pytester, "levelbench.measure(work, budget=0.05, timer=clock)")
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.assert_outcomes()  # the Ctrl-C came in the first test: no test outcome is reported after it
    session = _stored(os.environ["LEVELBENCH_DB"], 1)
    assert session == ("interrupted", "interrupted (Ctrl-C)", [("test_timing.py::test_a_measured::work", "ok")])

    sent.clear()
    outcome = run_workloads([f"{SIMPLE}:SLEEPY"], {"ms": [1, 2, 3]}, budget=0.1, in_process=True,
                            db=str(tmp_path / "r.db"))
    status, error, results = _stored(tmp_path / "r.db", outcome.run_id)
    assert (status, error) == session[:2]
    # the one being written when the signal came kept, the two after it recorded as not run
    assert [s for _, s in results] == ["ok", "skipped", "skipped"]
    assert [kind for kind, _ in ends] == ["pytest", "run"]



def test_a_store_that_fails_while_recording_ends_both_runs_failed_with_the_reason(pytester, _peak_cache, tmp_path,
                                                                                 monkeypatch, ends):
    """Before, the session's run was left ``running`` (read back as abandoned) when a write failed; now it
    ends ``failed`` with the reason, as ``levelbench run``'s does, and the session's tests still pass."""
    add_result = Store.add_result
    calls = []

    def full_after_the_first(self, run_id, result):
        calls.append(run_id)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return add_result(self, run_id, result)

    monkeypatch.setattr(Store, "add_result", full_after_the_first)
    result = _session(pytester, "levelbench.measure(work, budget=0.05, timer=clock)")
    result.assert_outcomes(passed=3)  # recording is a service: it fails no test
    result.stdout.fnmatch_lines(["results not recorded: OSError: [[]Errno 28[]] No space left on device"])
    session = _stored(os.environ["LEVELBENCH_DB"], 1)
    assert session == ("failed", "OSError: [Errno 28] No space left on device",
                       [("test_timing.py::test_a_measured::work", "ok")])

    calls.clear()
    outcome = run_workloads([f"{SIMPLE}:SLEEPY"], {"ms": [1, 2, 3]}, budget=0.1, in_process=True,
                            db=str(tmp_path / "r.db"))
    assert outcome.crashed
    status, error, results = _stored(tmp_path / "r.db", outcome.run_id)
    assert (status, error) == session[:2]
    assert [kind for kind, _ in ends] == ["pytest", "run"]


def test_the_session_records_without_loading_the_runner_or_the_cluster():
    """The lifecycle sits apart from `levelbench run`'s engines: a pytest session that saves loads none of them."""
    import subprocess
    import sys

    code = ("import sys, levelbench.pytest_plugin.session; "
            "print(sorted(m for m in ('levelbench._runs', 'levelbench.workloads', 'levelbench.cluster', "
            "'levelbench._probing', 'ray') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "[]"


@pytest.mark.slow
def test_a_session_timed_in_one_xdist_worker_ends_its_run(pytester, _peak_cache):
    """``pytest -n 1``: the worker times the tests and records the run; it ends it too (it was left
    ``running``, read back as abandoned, since only the controller finished the session)."""
    pytest.importorskip("xdist")
    pytester.makepyfile(test_timing=SESSION.replace("{stop}", "pass"))
    result = pytester.runpytest_subprocess("-n", "1", "--levelbench-save")
    result.assert_outcomes(passed=3)
    status, error, results = _stored(os.environ["LEVELBENCH_DB"], 1)
    assert (status, error) == ("ok", "")
    assert [s for _, s in results] == ["ok", "ok"]
