"""Item 8: a merge is all or nothing (a bad source, a failure half-way, Ctrl-C/SIGTERM/SIGHUP), and two
merges into one output at once lose and duplicate nothing. Item 29: a bad source or output is named
with the fix in merge's own words."""

from __future__ import annotations

import hashlib
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from conftest import levelbench_cli as lb
from levelbench._results.workload import WorkloadResult
from levelbench.store import StoreError, open_store
from levelbench.store import _merge

pytestmark = pytest.mark.reliability


def _record(path: Path, host: str, runs: int, start: float) -> None:
    with open_store(path) as store:
        for i in range(runs):
            run_id = store.begin_run(kind="run", argv=["run", str(i)], environment={"hostname": host},
                                     git_commit="", started=start + i)
            store.add_result(run_id, WorkloadResult("w", {"n": i}, "failed", error="deliberate"))
            store.end_run(run_id, "failed", "deliberate")


@pytest.fixture
def sources(tmp_path):
    a, b, c = tmp_path / "A.db", tmp_path / "B.db", tmp_path / "C.db"
    _record(a, "a", 2, 1000.0)
    _record(b, "b", 6, 2000.0)
    _record(c, "c", 3, 1500.0)
    return a, b, c


def _runs(db: Path) -> list[tuple]:
    with sqlite3.connect(db) as conn:
        return conn.execute("SELECT started, environment, status FROM runs ORDER BY id").fetchall()


def _digest(db: Path) -> str:
    """The stored runs and results, whatever SQLite's page layout."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT * FROM runs ORDER BY id").fetchall() + \
            conn.execute("SELECT * FROM results ORDER BY id").fetchall()
    return hashlib.sha256(repr(rows).encode()).hexdigest()


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if ".merging" in p.name or p.name.endswith(".partial"))


def _existing_output(tmp_path: Path) -> Path:
    out = tmp_path / "out.db"
    _record(out, "mine", 1, 500.0)
    return out


@pytest.mark.parametrize("bad, says", [
    ("random", "got a file that is not SQLite (first bytes"),
    ("foreign", "got an SQLite database of another program at * (tables: customers; application_id 0x0): leave "
                "it out of the sources"),
    ("empty", "got an empty file at *: it holds no runs; leave it out of the sources"),
    ("device", "got a character device at /dev/null, not a file"),
    ("missing", "no results database at *"),
])
@pytest.mark.parametrize("output", ["new", "existing"])
def test_a_source_that_cannot_be_merged_writes_nothing(tmp_path, sources, bad, says, output):
    # Before: the output was created anyway (an empty store), and a foreign or empty source was
    # described only as "(no such table: meta)".
    path = {"random": tmp_path / "random.db", "foreign": tmp_path / "foreign.db", "empty": tmp_path / "zero.db",
            "device": Path("/dev/null"), "missing": tmp_path / "missing.db"}[bad]
    if bad == "random":
        path.write_bytes(bytes(range(256)) * 4)
    elif bad == "foreign":
        with sqlite3.connect(path) as conn:
            conn.execute("CREATE TABLE customers (name TEXT)")
    elif bad == "empty":
        path.write_bytes(b"")
    out = _existing_output(tmp_path) if output == "existing" else tmp_path / "new" / "out.db"
    before = _digest(out) if out.exists() else None
    r = lb("merge", str(sources[0]), str(path), "-o", str(out))
    assert r.returncode == 2, r.stderr
    line = r.stderr.strip()
    assert "\n" not in line and "Traceback" not in line
    at = 0
    for part in says.split("*"):
        assert line.find(part, at) >= 0, (part, line)
        at = line.find(part, at) + len(part)
    if before is None:
        assert not out.parent.exists()  # not even the folder made for it
    else:
        assert _digest(out) == before
        assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("bad, says", [
    ("foreign", "got an SQLite database of another program at * (tables: customers; application_id 0x0): "
                "pass -o with another path, or move that file away"),
    ("text", "got a text file starting 'notes' at *: pass -o with another path"),
])
def test_an_output_that_is_not_a_results_database_is_refused_naming_o(tmp_path, sources, bad, says):
    # Before: "pass --db with another path", an option merge does not take.
    out = tmp_path / "out.db"
    if bad == "foreign":
        with sqlite3.connect(out) as conn:
            conn.execute("CREATE TABLE customers (name TEXT)")
    else:
        out.write_text("notes\n")
    before = out.read_bytes()
    r = lb("merge", str(sources[0]), "-o", str(out))
    assert r.returncode == 2 and "--db" not in r.stderr, r.stderr
    at = 0
    for part in says.split("*"):
        assert r.stderr.find(part, at) >= 0, (part, r.stderr)
        at = r.stderr.find(part, at) + len(part)
    assert out.read_bytes() == before


@pytest.mark.parametrize("output", ["new", "existing"])
def test_a_failure_half_way_rolls_the_whole_merge_back(tmp_path, sources, monkeypatch, output):
    # Before: each source was its own transaction, so the sources merged before the failure stayed.
    out = _existing_output(tmp_path) if output == "existing" else tmp_path / "out.db"
    before = _digest(out) if out.exists() else None
    original, calls = _merge._insert, []

    def failing(conn, table, *args, **kwargs):
        calls.append(table)
        if calls.count("runs") == 5:  # A's two runs and two of C's are in: then the disk fills
            raise sqlite3.OperationalError("database or disk is full")
        return original(conn, table, *args, **kwargs)

    monkeypatch.setattr(_merge, "_insert", failing)
    with pytest.raises(StoreError, match=f"disk full: the results database {out} could not be written"):
        _merge.merge_files(out, sources)
    assert _digest(out) == before if before else not out.exists()
    assert _leftovers(tmp_path) == []


SIGNAL_WHILE_MERGING = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the tests run with SIGINT ignored
from levelbench.store import _merge

original, calls = _merge._insert, []

def _insert(conn, table, *args, **kwargs):
    calls.append(table)
    if calls.count("runs") == 5 and table == "runs":  # half-way: past the first sources
        os.kill(os.getpid(), signal.{sig})
        time.sleep(0.2)  # the signal is due now, in the middle of the merge
    return original(conn, table, *args, **kwargs)

_merge._insert = _insert
from levelbench._cli import main
main(prog_name="levelbench", args=sys.argv[1:])
"""


@pytest.mark.parametrize("output", ["new", "existing"])
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_stop_signal_during_a_merge_writes_nothing_and_says_so(tmp_path, sources, sig, output):
    # Before: the sources merged before the signal stayed; SIGINT printed only click's "Aborted!" (rc 1)
    # and SIGTERM nothing (rc 143).
    out = _existing_output(tmp_path) if output == "existing" else tmp_path / "out.db"
    before = _digest(out) if out.exists() else None
    r = subprocess.run([sys.executable, "-c", SIGNAL_WHILE_MERGING.replace("{sig}", sig.name), "merge",
                        *map(str, sources), "-o", str(out)], capture_output=True, text=True, timeout=120)
    assert r.returncode == 130, r.stderr
    why = "Ctrl-C" if sig == signal.SIGINT else sig.name
    kept = "is as it was" if before else "was not created"
    assert r.stderr.strip() == f"levelbench merge: interrupted ({why}): nothing was written, {out} {kept}"
    assert r.stdout == ""
    assert _digest(out) == before if before else not out.exists()
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("output", ["new", "existing"])
def test_two_merges_into_one_output_at_once_keep_every_run_once(tmp_path, sources, output):
    out = _existing_output(tmp_path) if output == "existing" else tmp_path / "conc.db"
    procs = [subprocess.Popen([sys.executable, "-m", "levelbench", "merge", *map(str, sources), "-o", str(out)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True) for _ in range(2)]
    outcomes = [p.communicate(timeout=120) for p in procs]
    assert [p.returncode for p in procs] == [0, 0], outcomes
    runs = _runs(out)
    assert len(runs) == 11 + (output == "existing") and len(set(runs)) == len(runs)
    assert _leftovers(tmp_path) == []


def test_a_new_output_created_by_another_merge_meanwhile_gets_this_merge_too(tmp_path, sources):
    # The new output is built aside and linked into place, which fails if it appeared meanwhile: then
    # the sources go into what is there, skipping what the other merge brought.
    out = tmp_path / "out.db"
    with _merge.prepare_merge(out, sources) as pending:
        assert not out.exists()
        _merge.merge_files(out, sources[:2])  # the other merge, done first
        pending.commit()
    assert [(m.runs, m.skipped) for m in pending.merged] == [(0, 2), (0, 6), (3, 0)]
    runs = _runs(out)
    assert len(runs) == 11 and len(set(runs)) == 11
    assert _leftovers(tmp_path) == []


@pytest.mark.parametrize("output", ["new", "existing"])
def test_a_full_disk_half_way_leaves_the_output_as_it_was(tmp_path, output):
    from _support import small_disk

    big = tmp_path / "big.db"
    with open_store(big) as store:
        for i in range(60):  # ~600 kB of environments: more than the disk holds
            run_id = store.begin_run(kind="run", argv=["run", str(i)], git_commit="", started=1000.0 + i,
                                     environment={"hostname": "big", "blob": f"{i:04d}" * 2500})
            store.end_run(run_id, "ok")
    with small_disk(tmp_path / "disk", "384k") as disk:
        out = disk / "out.db"
        if output == "existing":
            _record(out, "mine", 1, 500.0)
        before = _digest(out) if out.exists() else None
        r = lb("merge", str(big), "-o", str(out))
        assert r.returncode == 2 and "disk full" in r.stderr and "Traceback" not in r.stderr, r.stderr
        assert _digest(out) == before if before else not out.exists()
        assert _leftovers(disk) == []


SIGNAL_WHILE_COMMITTING = """
import os, signal, sys, time
from levelbench.store import _merge

original = _merge._NewFile.commit

def commit(self):
    os.kill(os.getpid(), signal.SIGTERM)
    time.sleep(0.2)  # due now, while the merge is made visible: held until that is done and reported
    original(self)

_merge._NewFile.commit = commit
from levelbench._cli import main
main(prog_name="levelbench", args=sys.argv[1:])
"""


def test_a_stop_signal_while_the_merge_is_made_visible_says_it_was_written(tmp_path, sources):
    out = tmp_path / "out.db"
    r = subprocess.run([sys.executable, "-c", SIGNAL_WHILE_COMMITTING, "merge", *map(str, sources), "-o", str(out)],
                       capture_output=True, text=True, timeout=120)
    assert r.returncode == 130, r.stderr
    assert r.stderr.strip() == f"levelbench merge: interrupted (SIGTERM) after {out} was written"
    assert r.stdout.splitlines()[-1] == f"wrote {out}"
    assert len(_runs(out)) == 11 and _leftovers(tmp_path) == []
