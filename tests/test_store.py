"""The results store: recording, reading back, run references, bad files, schema migration, export."""

from __future__ import annotations

import csv
import io
import json
import os
import sqlite3
import subprocess
import sys

import numpy as np
import pytest
from test_store_fakes import ENV, comparison, gru_sweep, record, result

import levelbench
from levelbench._results.workload import WorkloadResult
from levelbench.store import SCHEMA_VERSION, StoreError, open_store
from levelbench.store import _schema
from conftest import levelbench_cli as cli


@pytest.fixture
def store(tmp_path):
    with open_store(tmp_path / "results.db") as s:
        yield s


# -- recording and reading back ---------------------------------------------------------------
def test_a_recorded_run_reads_back_exactly(store):
    results = gru_sweep()
    failed = WorkloadResult("matmul", {"n": 10}, "failed", None, "the worker died with SIGSEGV", 0.5)
    run_id = store.begin_run(kind="run", argv=["--workload", "gru"], environment=ENV, git_commit="abc123")
    for r in [*results, failed]:
        store.add_result(run_id, r)
    store.end_run(run_id, status="ok")

    run = store.run(run_id)
    assert (run.kind, run.status, run.argv, run.git_commit) == ("run", "ok", ("--workload", "gru"), "abc123")
    assert run.environment == ENV
    assert run.workload_counts == {"gru": 4, "matmul": 1}
    assert run.finished is not None and run.finished >= run.started
    assert [r.to_dict() for r in run.results] == [r.to_dict() for r in [*results, failed]]
    assert run.results[0].comparison.measurements["jax_scan"].samples == results[0].comparison.measurements["jax_scan"].samples


def test_the_default_database_is_levelbench_db_from_the_environment(tmp_path, monkeypatch):
    monkeypatch.setenv("LEVELBENCH_DB", str(tmp_path / "elsewhere" / "x.db"))
    with open_store() as s:
        assert s.path == tmp_path / "elsewhere" / "x.db"
    monkeypatch.delenv("LEVELBENCH_DB")
    monkeypatch.chdir(tmp_path)
    with open_store() as s:
        s.begin_run(environment=ENV, git_commit="")
    assert (tmp_path / ".levelbench" / "results.db").is_file()


def test_indexed_columns_repeat_the_headline_numbers(store):
    run_id = record(store, gru_sweep(seqs=(25,)))
    rows = store._conn.execute(
        "SELECT c.name, c.framework, c.median, c.compile_time, c.verdict FROM candidates c "
        "JOIN results r ON r.id = c.result_id WHERE r.run_id = ? ORDER BY c.name", (run_id,)).fetchall()
    m = store.run(run_id).results[0].comparison.measurements
    assert [r[0] for r in rows] == sorted(m)
    by_name = {r[0]: r for r in rows}
    assert by_name["torch"][2] == pytest.approx(m["torch"].median)
    assert by_name["jax_scan"][3] == pytest.approx(m["jax_scan"].compile.total)
    assert by_name["numpy"][3] is None
    assert by_name["jax_scan"][4] == "baseline"


def test_run_references(store):
    ids = [record(store, [result("w", {"a": ("numpy", 1e-3)})]) for _ in range(3)]
    assert store.resolve("latest") == ids[2]
    assert store.resolve("latest~2") == ids[0]
    assert store.resolve(str(ids[1])) == ids[1] == store.resolve(ids[1])
    with pytest.raises(StoreError, match=r"no run 99 .* ids 1\.\.3"):
        store.resolve("99")
    with pytest.raises(StoreError, match=r"no run 'latest~3'"):
        store.resolve("latest~3")
    with pytest.raises(StoreError, match=r"expected a run id \(e.g. 3\), 'latest' or 'latest~N', got 'yesterday'"):
        store.resolve("yesterday")


def test_select_runs_names_each_run_once_in_the_order_first_named(store):
    ids = [record(store, [result("w", {"a": ("numpy", 1e-3)})]) for _ in range(3)]
    assert [r.id for r in store.select_runs()] == [ids[2]]
    assert [r.id for r in store.select_runs([ids[0], "latest", str(ids[2]), "latest~2"])] == [ids[0], ids[2]]
    assert store.select_runs(["latest~1"])[0].results  # read with its results
    with pytest.raises(StoreError, match=r"no run 99 "):
        store.select_runs(["latest", "99"])


def test_history_filters_by_workload(store):
    record(store, [result("matmul", {"a": ("numpy", 1e-3)})])
    gru = record(store, gru_sweep(seqs=(25, 50)))
    assert [r.id for r in store.runs(workload="gru")] == [gru]
    assert [r.workload_counts for r in store.runs()] == [{"matmul": 1}, {"gru": 2}]
    assert [r.id for r in store.runs(limit=1)] == [gru]


def test_results_are_checked_before_they_are_stored(store):
    run_id = store.begin_run(environment=ENV, git_commit="")
    with pytest.raises(ValueError, match="status must be one of ok, failed, timeout, skipped, interrupted, got 'done'"):
        store.add_result(run_id, {"workload": "w", "status": "done"})
    with pytest.raises(TypeError, match="use Store.save_comparison"):
        store.add_result(run_id, comparison({"a": ("numpy", 1e-3)}))
    with pytest.raises(StoreError, match="no run 99"):
        store.add_result(99, result("w", {"a": ("numpy", 1e-3)}))
    store.end_run(run_id)
    with pytest.raises(StoreError, match=r"run \d+ has ended \(status ok\)"):
        store.add_result(run_id, result("w", {"a": ("numpy", 1e-3)}))
    with pytest.raises(ValueError, match="run status must be one of ok, interrupted, failed"):
        store.end_run(run_id, "done")


def test_recording_marks_the_run_interrupted_on_ctrl_c_and_keeps_its_results(store):
    with pytest.raises(KeyboardInterrupt):
        with store.recording(environment=ENV, git_commit="") as run_id:
            store.add_result(run_id, result("w", {"a": ("numpy", 1e-3)}))
            raise KeyboardInterrupt
    run = store.run(run_id)
    assert run.status == "interrupted" and len(run.results) == 1
    with pytest.raises(RuntimeError):
        with store.recording(environment=ENV, git_commit="") as run_id:
            raise RuntimeError("boom")
    assert store.run(run_id).status == "failed"


def test_ctrl_c_inside_a_write_leaves_no_partial_result(store, monkeypatch):
    run_id = store.begin_run(environment=ENV, git_commit="")

    def interrupted(*args):
        raise KeyboardInterrupt

    monkeypatch.setattr(_schema, "index_comparison", interrupted)
    with pytest.raises(KeyboardInterrupt):
        store.add_result(run_id, result("w", {"a": ("numpy", 1e-3)}))
    monkeypatch.undo()
    assert store._conn.execute("SELECT COUNT(*) FROM results").fetchone()[0] == 0
    store.end_run(run_id, "interrupted")  # the connection is usable again
    assert store.run(run_id).status == "interrupted"


def test_save_measurement_and_comparison_record_runs_of_their_own(store):
    m = levelbench.measure(np.sum, np.ones(1000), budget=0.05, environment=False)
    run_id = store.save_measurement(m, label="sum of 1000")
    run = store.run(run_id)
    assert (run.kind, run.label, run.status) == ("measure", "sum of 1000", "ok")
    stored = run.results[0].comparison.measurements[m.label]
    assert stored.samples == m.samples and stored.median == m.median

    c = comparison({"a": ("numpy", 1e-3), "b": ("jax", 2e-3)}, title="mine", params={"n": 3})
    run = store.run(store.save_comparison(c))
    assert (run.kind, run.results[0].workload, run.results[0].params) == ("compare", "mine", {"n": 3})
    assert run.results[0].comparison.verdict("b") == "slower"


def test_git_commit_is_detected_when_not_given(tmp_path, monkeypatch):
    repo = tmp_path / "repo"
    repo.mkdir()
    git = ["git", "-c", "user.email=t@t", "-c", "user.name=t"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    (repo / "f").write_text("1")
    subprocess.run([*git, "add", "f"], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "x"], cwd=repo, check=True)
    head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=repo, capture_output=True, text=True).stdout.strip()
    monkeypatch.chdir(repo)
    with open_store(tmp_path / "r.db") as s:
        assert s.run(s.begin_run(environment=ENV)).git_commit == head
        (repo / "f").write_text("2")
        assert s.run(s.begin_run(environment=ENV)).git_commit == head + "+dirty"
    monkeypatch.chdir(tmp_path)
    with open_store(tmp_path / "r.db") as s:
        assert s.run(s.begin_run(environment=ENV)).git_commit is None


# -- files that are not (current) levelbench databases ---------------------------------------
def test_a_text_file_is_refused_and_left_alone(tmp_path):
    path = tmp_path / "results.db"
    path.write_text("hello, these are my notes\n")
    with pytest.raises(StoreError, match=r"expected a levelbench results database, got a text file starting "
                                         r"'hello, these are my notes' at .*move that file away"):
        open_store(path)
    assert path.read_text() == "hello, these are my notes\n"


def test_random_bytes_are_refused(tmp_path):
    path = tmp_path / "results.db"
    path.write_bytes(bytes(np.random.default_rng(0).integers(0, 256, 4096, dtype=np.uint8)))
    with pytest.raises(StoreError, match="expected a levelbench results database, got a file that is not SQLite"):
        open_store(path)


def test_a_damaged_sqlite_file_is_refused(tmp_path):
    path = tmp_path / "results.db"
    record(open_store(path), [result("w", {"a": ("numpy", 1e-3)})])
    data = bytearray(path.read_bytes())
    data[16:4096] = bytes(np.random.default_rng(1).integers(0, 256, 4080, dtype=np.uint8))
    path.write_bytes(bytes(data))
    for name in ("results.db-wal", "results.db-shm"):
        (tmp_path / name).unlink(missing_ok=True)
    with pytest.raises(StoreError, match="expected a levelbench results database, got a damaged SQLite file"):
        open_store(path)


def test_another_programs_sqlite_database_is_refused_and_not_modified(tmp_path):
    path = tmp_path / "results.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE customers (id INTEGER, name TEXT)")
    conn.execute("INSERT INTO customers VALUES (1, 'ada')")
    conn.commit()
    conn.close()
    before = path.read_bytes()
    with pytest.raises(StoreError, match=r"got an SQLite database of another program at .* \(tables: customers; "
                                         r"application_id 0x0\).*never overwrites it"):
        open_store(path)
    assert path.read_bytes() == before
    assert not (tmp_path / "results.db-wal").exists()


def test_a_database_from_a_newer_levelbench_is_refused(tmp_path):
    path = tmp_path / "results.db"
    open_store(path).close()
    conn = sqlite3.connect(path)
    conn.execute(f"PRAGMA user_version = {SCHEMA_VERSION + 1}")
    conn.close()
    with pytest.raises(StoreError, match=rf"schema version {SCHEMA_VERSION + 1}, written by a newer levelbench "
                                         rf"\(this one reads up to {SCHEMA_VERSION}\): upgrade levelbench"):
        open_store(path)


def test_a_directory_or_a_missing_file_for_reading_is_refused(tmp_path):
    with pytest.raises(StoreError, match="got the directory"):
        open_store(tmp_path)
    with pytest.raises(StoreError, match="no results database at .*record runs with `levelbench run` first"):
        open_store(tmp_path / "none.db", create=False)
    assert not (tmp_path / "none.db").exists()


def test_cli_says_what_is_wrong_with_the_database_in_one_line_and_exits_2(tmp_path):
    path = tmp_path / "results.db"
    path.write_bytes(b"\x00\x01garbage" * 50)
    p = cli("history", "--db", str(path))
    assert p.returncode == 2, p.stderr
    assert p.stderr.count("\n") == 1 and "Traceback" not in p.stderr
    assert p.stderr.startswith("levelbench history: expected a levelbench results database, got a file that is not SQLite")
    assert p.stdout == ""


@pytest.mark.parametrize("command", [["diff", "1", "2"], ["export", "1"], ["report", "--format", "md"]])
def test_every_reading_command_reports_a_bad_database_the_same_way(tmp_path, command):
    from click.testing import CliRunner

    from levelbench._cli.main import main

    path = tmp_path / "results.db"
    path.write_text("not a database")
    r = CliRunner().invoke(main, [*command, "--db", str(path)])
    assert r.exit_code == 2 and r.stdout == ""
    assert r.stderr == (f"levelbench {command[0]}: expected a levelbench results database, got a text file starting "
                        f"'not a database' at {path}: pass --db with another path, or move that file away "
                        "(levelbench never overwrites it)\n")


# -- schema migration ---------------------------------------------------------------------------
def _v1_database(path: str) -> dict:
    """A database exactly as levelbench's first schema wrote it, holding one run with one result."""
    doc = result("gru", {"a": ("jax", 1e-3), "b": ("numpy", 2e-3)}, params={"seq": 25}).to_dict()
    conn = sqlite3.connect(path)
    conn.executescript(_schema.SCHEMA_V1)
    conn.execute("INSERT INTO runs (kind, started, finished, status, argv, git_commit, environment) "
                 "VALUES ('run', 1.0e9, 1.0e9 + 5, 'ok', '[\"--workload\", \"gru\"]', 'abc', ?)", (json.dumps(ENV),))
    conn.execute("INSERT INTO results (run_id, workload, params, status, error, duration, comparison, recorded) "
                 "VALUES (1, 'gru', '{\"seq\": 25}', 'ok', '', 3.0, ?, 1.0e9 + 4)", (json.dumps(doc["comparison"]),))
    conn.commit()
    conn.close()
    return doc


def test_a_first_version_database_is_migrated_and_its_runs_kept(tmp_path):
    path = tmp_path / "v1.db"
    doc = _v1_database(str(path))
    with open_store(path) as s:
        assert s.schema_version() == SCHEMA_VERSION == 3
        run = s.run(1)
        assert (run.label, run.git_commit, run.argv) == ("", "abc", ("--workload", "gru"))
        assert run.results[0].to_dict()["comparison"] == doc["comparison"]
        backfilled = s._conn.execute("SELECT name, verdict FROM candidates ORDER BY name").fetchall()
        assert backfilled == [("a", "baseline"), ("b", "slower")]
        assert [r.id for r in s.runs(workload="gru")] == [1]  # uses the index v2 added
        new = record(s, [result("gru", {"a": ("jax", 1e-3)})])  # and it takes new runs
    p = cli("history", "--db", str(path))
    assert p.returncode == 0 and f"\n {new} " in p.stdout


def test_a_failing_migration_leaves_the_old_database_as_it_was(tmp_path, monkeypatch):
    path = tmp_path / "v1.db"
    _v1_database(str(path))

    def broken(conn):
        raise sqlite3.OperationalError("simulated failure")

    monkeypatch.setattr(_schema, "MIGRATIONS", (_schema.Migration(2, "x", ("CREATE TABLE extra (x)",), broken),))
    with pytest.raises(StoreError, match="simulated failure"):
        open_store(path)
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == 1
    assert "extra" not in {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
    conn.close()


# -- CLI: history and export -------------------------------------------------------------------
def test_history_lists_id_time_commit_workloads_status_and_versions(tmp_path):
    path = tmp_path / "r.db"
    with open_store(path) as s:
        record(s, gru_sweep())
        interrupted = s.begin_run(environment=ENV, git_commit="")
        s.end_run(interrupted, "interrupted")
    p = cli("history", "--db", str(path))
    assert p.returncode == 0, p.stderr
    header, first, second = p.stdout.splitlines()[:3]
    assert header.split() == ["id", "started", "kind", "status", "git", "workloads", "machine", "levelbench", "jax",
                              "torch"]
    assert first.split()[0] == "1" and "abc123def456" in first and "gru x4" in first
    assert first.split()[-3:] == ["0.1.0", "0.10.2", "2.13.0+cpu"]
    assert "interrupted" in second and "(no results)" in second
    runs = json.loads(cli("history", "--db", str(path), "--json").stdout)
    assert [r["status"] for r in runs] == ["ok", "interrupted"]
    assert runs[0]["machine"] == ENV["cpu"] and ENV["cpu"] in first  # no hostname recorded: the CPU alone
    with open_store(path) as s:  # the same listing from Python
        assert json.loads(json.dumps([r.listing() for r in s.runs()], default=str)) == runs
        assert runs[0]["workloads"] == {"gru": 4} and "results" not in runs[0]


def test_export_json_has_raw_samples_and_csv_one_row_per_candidate(tmp_path):
    path = tmp_path / "r.db"
    with open_store(path) as s:
        results = gru_sweep(seqs=(25, 50))
        record(s, [*results, WorkloadResult("matmul", {"n": 1}, "timeout", None, "no result after 5 s")])
    p = cli("export", "latest", "--db", str(path))
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert doc["format"] == "levelbench.run" and doc["environment"] == ENV
    assert doc["results"][0]["comparison"]["measurements"]["torch"]["samples"] == list(
        results[0].comparison.measurements["torch"].samples)
    out = tmp_path / "run.csv"
    assert cli("export", "1", "--format", "csv", "-o", str(out), "--db", str(path)).returncode == 0
    rows = list(csv.DictReader(io.StringIO(out.read_text())))
    assert len(rows) == 2 * 4 + 1
    torch = next(r for r in rows if r["candidate"] == "torch" and json.loads(r["params"])["seq"] == 50)
    assert float(torch["median_s"]) == pytest.approx(results[1].comparison.measurements["torch"].median)
    assert rows[-1]["status"] == "timeout" and rows[-1]["error"] == "no result after 5 s"


def test_store_import_stays_light():
    code = ("import sys, levelbench.store, levelbench.report; "
            "print(sorted(m for m in ('jax', 'torch', 'matplotlib', 'scipy') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env={**os.environ}, timeout=60)
    assert p.stdout.strip() == "[]", p.stderr


def test_docs_schema_table_lists_every_version_the_code_writes():
    # Before: docs/store.md's table stopped at version 2 while the code wrote 3.
    import re
    from pathlib import Path

    text = (Path(__file__).resolve().parents[1] / "docs" / "guide" / "store.md").read_text()
    section = text.split("## Schema and migrations", 1)[1].split("\n## ", 1)[0]
    listed = [int(v) for v in re.findall(r"^\| (\d+) \|", section, flags=re.M)]
    assert listed == list(range(1, SCHEMA_VERSION + 1)) == [1] + [m.version for m in _schema.MIGRATIONS]
    for m in _schema.MIGRATIONS:  # each row names what its migration adds
        row = next(line for line in section.splitlines() if line.startswith(f"| {m.version} |"))
        for statement in m.statements:
            added = re.match(r"ALTER TABLE (\w+) ADD COLUMN (\w+)|CREATE TABLE (\w+)|CREATE INDEX \w+ ON (\w+)",
                             statement.strip())
            assert added, statement
            column = added.group(2)
            assert (f"`{added.group(1)}.{column}`" if column else f"`{added.group(3) or added.group(4)}") in row, \
                (m.version, statement)
