"""`levelbench merge`: runs in progress, copies taken before a run ended, and the order of merged runs."""

from __future__ import annotations

import socket
import sqlite3
from pathlib import Path

from conftest import levelbench_cli
from levelbench._results.workload import WorkloadResult
from levelbench.store import open_store
from levelbench.store._merge import merge_files


def _record(path: Path, host: str, started: float, workloads: int = 1, end: bool = True) -> int:
    with open_store(path) as store:
        run_id = store.begin_run(kind="run", argv=["run", str(started)], environment={"hostname": host},
                                 git_commit="", started=started)
        for i in range(workloads):
            store.add_result(run_id, WorkloadResult(f"w{i}", {"n": 1}, "failed", error="deliberate"))
        if end:
            store.end_run(run_id, "failed", "deliberate")
    return run_id


def _finish(path: Path, run_id: int, more: int) -> None:
    with open_store(path) as store:
        for i in range(more):
            store.add_result(run_id, WorkloadResult(f"late{i}", {"n": 1}, "failed", error="deliberate"))
        store.end_run(run_id, "partial", "some failed")


# -- item 4: a run merged while it is being recorded --------------------------------------------------
def test_a_run_still_being_recorded_here_is_left_out_and_merged_once_it_ends(tmp_path):
    # Before: the first merge copied the one result recorded so far; the second saw the same run
    # (start, kind, argv, host) "already there" and never brought the other two.
    live, out = tmp_path / "live.db", tmp_path / "out.db"
    _record(live, "host", 100.0)  # an earlier, finished run
    run_id = _record(live, "host", 200.0, workloads=1, end=False)  # recorded by this (live) process, here
    r = levelbench_cli("merge", str(live), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"{live}: 1 run(s), 1 result(s) merged" in r.stdout
    assert f"{live}: run {run_id} is still running: left out; merge it again when it ends" in r.stdout
    _finish(live, run_id, more=2)
    (m,) = merge_files(out, [live])
    assert (m.runs, m.results, m.skipped, m.running) == (1, 3, 1, ())
    with open_store(out, create=False) as store:
        merged = store.run("latest")
        assert (merged.status, len(merged.results)) == ("partial", 3)


def test_a_copy_taken_before_its_run_ended_is_brought_up_to_date(tmp_path):
    # A run from another host, copied while it ran: nothing here can tell whether its process lives, so
    # it is merged as far as it got, and a later merge of the fuller copy replaces it (same id).
    src, out = tmp_path / "hostB.db", tmp_path / "out.db"
    run_id = _record(src, "hostB", 300.0, workloads=1, end=False)
    with sqlite3.connect(src) as conn:
        conn.execute("UPDATE runs SET host = 'hostB', pid = 1 WHERE id = ?", (run_id,))
    r = levelbench_cli("merge", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"run {run_id} had not ended (running on hostB): merged as far as it got" in r.stdout
    _record(tmp_path / "other.db", "hostC", 400.0)
    merge_files(out, [tmp_path / "other.db"])
    _finish(src, run_id, more=2)
    r = levelbench_cli("merge", str(src), "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert f"{src}: 0 run(s), 3 result(s) merged, 1 brought up to date" in r.stdout
    with open_store(out, create=False) as store:
        first = store.run(1)
        assert (first.status, first.environment["hostname"], len(first.results)) == ("partial", "hostB", 3)
        assert [r.workload for r in first.results] == ["w0", "late0", "late1"]
        assert len(store.runs()) == 2
        counts = store._conn.execute("SELECT COUNT(*) FROM candidates c JOIN results r ON r.id = c.result_id "
                                     "WHERE r.run_id = 1").fetchone()
        assert counts == (0,)  # failed results have no candidates; none left behind from the old copy
    again = merge_files(out, [src])
    assert (again[0].runs, again[0].updated, again[0].skipped) == (0, 0, 1)


def test_a_run_of_a_process_that_died_here_is_merged_as_it_is(tmp_path):
    src, out = tmp_path / "dead.db", tmp_path / "out.db"
    run_id = _record(src, "host", 500.0, end=False)
    with sqlite3.connect(src) as conn:  # pid 2**22+1 is above Linux's pid_max: no such process
        conn.execute("UPDATE runs SET pid = ?, host = ? WHERE id = ?", (2**22 + 1, socket.gethostname(), run_id))
    (m,) = merge_files(out, [src])
    assert (m.runs, m.running) == (1, ())
    with open_store(out, create=False) as store:
        assert store.run(1).status == "abandoned"


# -- item 36: the order of merged runs --------------------------------------------------------------
def test_history_and_latest_follow_start_times_whatever_the_merge_order(tmp_path):
    # Before: ids followed merge order, so history was not oldest first and `latest` was the last
    # merged run, not the newest.
    a, b, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "out.db"
    for t in (1000.0, 3000.0):
        _record(a, "a", t)
    _record(b, "b", 2000.0)
    merge_files(out, [a])
    merge_files(out, [b])  # merged last, started in between
    with open_store(out, create=False) as store:
        runs = store.runs()
        assert [r.started for r in runs] == [1000.0, 2000.0, 3000.0]
        assert [r.id for r in runs] == [1, 3, 2]
        assert store.run("latest").started == 3000.0
        assert store.run("latest~1").started == 2000.0 and store.run("latest~2").started == 1000.0
        assert [r.started for r in store.runs(limit=2)] == [2000.0, 3000.0]
    fresh = tmp_path / "fresh.db"
    merge_files(fresh, [a, b])  # a new store's ids follow time across the sources
    with open_store(fresh, create=False) as store:
        assert [(r.id, r.started) for r in store.runs()] == [(1, 1000.0), (2, 2000.0), (3, 3000.0)]
    r = levelbench_cli("history", "--format", "json", "--db", str(out))
    assert r.returncode == 0, r.stderr
    assert '"id": 3' in r.stdout.split('"id": 2')[0]  # listed oldest first: run 3 (2000) before run 2 (3000)


def test_diff_with_no_runs_named_compares_with_the_run_that_started_before(tmp_path):
    from levelbench.store import previous_run

    a, b, out = tmp_path / "a.db", tmp_path / "b.db", tmp_path / "out.db"
    _record(a, "a", 1000.0)
    _record(a, "a", 3000.0)
    _record(b, "b", 2000.0)
    merge_files(out, [a])
    merge_files(out, [b])
    with open_store(out, create=False) as store:
        latest = store.run("latest")
        assert latest.started == 3000.0
        assert previous_run(store, latest).started == 2000.0
        assert previous_run(store, store.run(3)).started == 1000.0
