"""``doctor --run`` recorded in the results database: a run of kind ``doctor-run``, one result per timed
interval, shown by ``levelbench history`` and drawn as timelines by ``levelbench report``.

Real child runs of small scripts (seconds each) through the command as a user runs it, and made-up audits
(every number known) for the store round trip and the run's status.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

import pytest
from conftest import levelbench_cli
from test_store_fakes import ENV, record, result

from levelbench import record_audit
from levelbench._results.script_audit import FairFigure, Sample, ScriptAudit, TimedInterval
from levelbench._results.script_record import AS_TIMED, RUN_KIND, stored_interval
from levelbench._values.findings import Finding, Severity
from levelbench.report import html_report
from levelbench.store import Store, open_store

JAX_SCRIPT = """\
    import time
    import jax, jax.numpy as jnp
    x = jnp.ones((300, 300))
    f = jax.jit(lambda a: (a @ a).sum())
    for _ in range(3):
        t0 = time.perf_counter()
        y = f(x)
        print("jax", time.perf_counter() - t0)
    t1 = time.perf_counter()
    total = sum(range(20000))
    print("python", time.perf_counter() - t1)
"""


def write(tmp_path: Path, name: str, source: str) -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(source))
    return path


def made_up_audit(status: str = "finished", intervals: int = 2) -> ScriptAudit:
    """An audit whose every figure is known: a cold, unblocked JAX interval (its second sample dispatched
    eagerly and moved arrays both ways) and a clean Python one."""
    lb103 = Finding("LB103", "compilation timed", Severity.WARNING, evidence="1.93 s of the 2.01 s were compilation",
                    fix="f(x).block_until_ready()  # warm-up", data={"compile": 1.93})
    jax_interval = TimedInterval(
        11, 13, "time", (Sample(2.01, 1.93, {"f": 1.93}, {"f": 1}, 0.0), Sample(1.4e-5, pending=1.98, pending_arrays=1,
                                                                       eager_dispatches=1000, jit_calls=1, to_device=2,
                                                                       to_device_bytes=8 * 2**20, to_host=1,
                                                                       to_host_bytes=4)),
        findings=(lb103,), source="start = time.time()\ny = f(x)\nprint(time.time() - start)",
        fair=FairFigure(0.0421, 0.0419, 0.0425, 40, "jax"))
    python_interval = TimedInterval(20, 22, "perf_counter", (Sample(0.003),), fair=None,
                                    fair_note="line 21 writes a file: re-running it would change what it does")
    return ScriptAudit("bench/seed.py", ("--n", "3"), status, 0 if status == "finished" else 1, 2.5,
                       (jax_interval, python_interval)[:intervals], error="ValueError: bad n" if status == "raised" else "")


# -- the store round trip, on made-up audits ------------------------------------------------------------
def test_each_interval_is_one_result_and_reads_back_as_it_was(tmp_path):
    audit = made_up_audit()
    with open_store(tmp_path / "r.db") as store:
        outcome = record_audit(store, audit, argv=["doctor", "--run", "bench/seed.py"], environment=ENV)
        run = store.run(outcome.run_id)
    assert (outcome.status, run.kind, run.status, run.label) == ("ok", RUN_KIND, "ok", "seed.py")
    assert [r.workload for r in run.results] == ["seed.py lines 11-13", "seed.py lines 20-22"]
    back = [stored_interval(r.audit) for r in run.results]
    assert [interval for interval, _ in back] == list(audit.intervals)  # samples, findings, fair figure, note
    assert back[0][0].findings[0].data == {"compile": 1.93}
    outline = back[0][1]
    assert (outline["script"], outline["argv"], outline["status"], outline["wall_s"]) == (
        "bench/seed.py", ["--n", "3"], "finished", 2.5)
    # Every other reader sees an ordinary one-candidate result: what the script's clock measured.
    timed = run.results[0].comparison.measurements[AS_TIMED]
    assert timed.samples == (2.01, 1.4e-5) and timed.framework == "jax" and timed.compile_in_first_call == 1.93
    assert [f.code for f in timed.findings] == ["LB103"]
    assert run.results[1].comparison.measurements[AS_TIMED].framework == "python"  # no fair figure to say
    # `levelbench export`'s JSON (Run.to_dict) keeps the interval too.
    assert run.to_dict()["results"][0]["comparison"]["script_audit"]["interval"] == audit.intervals[0].to_dict()


@pytest.mark.parametrize("status, intervals, stored, why", [
    ("raised", 2, "partial", "the script raised ValueError: bad n; what ran before is recorded"),
    ("raised", 0, "failed", "the script raised ValueError: bad n"),
    ("timeout", 1, "partial", "stopped at the time limit after 2.5 s; what ran before is recorded"),
    ("interrupted", 1, "interrupted", "interrupted"),
    ("finished", 0, "ok", ""),  # a script that timed nothing ran to its end: nothing to keep, not a failure
])
def test_the_run_ends_as_the_script_did(tmp_path, status, intervals, stored, why):
    with open_store(tmp_path / "r.db") as store:
        outcome = record_audit(store, made_up_audit(status, intervals), environment=ENV)
        run = store.run(outcome.run_id)
    assert (outcome.status, run.status, run.error, len(run.results)) == (stored, stored, why, intervals)


# -- the command, with real child runs -------------------------------------------------------------------
@pytest.fixture(scope="module")
def recorded(tmp_path_factory):
    """The JAX script run once under ``doctor --run --db``: (folder, completed process, database)."""
    pytest.importorskip("jax")
    folder = tmp_path_factory.mktemp("doctor-run-store")
    write(folder, "bench.py", JAX_SCRIPT)
    db = folder / "results.db"
    done = levelbench_cli("doctor", "--run", "bench.py", "--db", str(db), cwd=folder)
    return folder, done, db


def test_the_audit_is_printed_then_recorded_and_said_where(recorded):
    folder, done, db = recorded
    assert done.returncode == 1, done.stderr  # findings (the cold, unblocked JAX interval)
    assert "bench.py:6-8" in done.stdout and "LB103" in done.stdout and "\njax " in done.stdout
    assert done.stderr.strip().splitlines()[-1] == f"levelbench doctor: recorded as run 1 (ok) in {db}"
    with open_store(db) as store:
        run = store.run("latest")
    assert run.kind == "doctor-run" and run.argv[:3] == ("doctor", "--run", "bench.py")
    assert [r.workload for r in run.results] == ["bench.py lines 6-8", "bench.py lines 9-11"]
    jax_interval, _ = stored_interval(run.results[0].audit)
    assert len(jax_interval.samples) == 3 and jax_interval.samples[0].cold
    assert {"LB102", "LB103"} <= {f.code for f in jax_interval.findings}


def test_history_lists_the_run_with_its_intervals(recorded):
    folder, _, db = recorded
    done = levelbench_cli("history", "--db", str(db), "--format", "json", cwd=folder)
    assert done.returncode == 0, done.stderr
    (listed,) = json.loads(done.stdout)
    assert listed["kind"] == "doctor-run" and listed["status"] == "ok"
    assert listed["workloads"] == {"bench.py lines 6-8": 1, "bench.py lines 9-11": 1}
    text = levelbench_cli("history", "--db", str(db), cwd=folder)
    assert "doctor-run" in text.stdout and "bench.py lines 6-8" in text.stdout


def test_the_report_draws_a_timeline_per_interval_with_its_findings(recorded):
    folder, _, db = recorded
    out = folder / "report.html"
    done = levelbench_cli("report", "latest", "--html", str(out), "--db", str(db), cwd=folder)
    assert done.returncode == 0, done.stderr
    page = out.read_text()
    assert page.count('class="plot plot-timeline"') == 2 and "<h2>doctor --run bench.py</h2>" in page
    first = page[page.index('id="audit-1-1"'):page.index('id="audit-1-2"')]
    assert 'class="compile"' in first and 'class="pending"' in first and 'class="fair"' in first
    assert "after the clock stopped" in first and "opening clock read, line 6" in first
    assert "LB103" in first and "evidence:" in first
    assert 'class="plot plot-medians"' not in page  # the intervals are not drawn as workloads


def test_the_timeline_shows_each_figure_where_it_belongs():
    page = html_report(_stored_run(made_up_audit()))
    jax_part = page[page.index('id="audit-1-1"'):page.index('id="audit-1-2"')]
    # The cold sample's bar ends at 2.01 s; its compile covers 1.93/2.01 of it; the second sample's
    # pending tail starts at its closing read; one scale for all (the cold sample sets it).
    assert "measured 2.01 s (to the clock read on line 13); compile 1.93 s" in jax_part
    assert "measured 14 us (to the clock read on line 13); still running 1.98 s after the clock stopped" in jax_part
    assert "fair 42.1 ms (warmed, blocked; 95% CI 41.9 ms to 42.5 ms)" in jax_part
    bars = re.findall(r'<rect class="(\w+)" x="([\d.]+)" y="\d+" width="([\d.]+)"', jax_part)
    width = {}
    for cls, _, w in bars:
        width.setdefault(cls, float(w))  # the first of each: the cold sample's, then the pending tail's
    cold, tail = width["measured"], width["pending"]
    compile_width = next(float(w) for cls, _, w in bars if cls == "compile")
    assert compile_width / cold == pytest.approx(1.93 / 2.01, abs=0.01)
    assert tail / cold == pytest.approx(1.98 / 2.01, abs=0.01)  # the missed work, on the same scale
    python_part = page[page.index('id="audit-1-2"'):]
    assert "line 21 writes a file" in python_part and 'class="fair"' not in python_part


def test_the_timeline_marks_a_samples_dispatches_and_transfers_and_none_where_there_were_none():
    page = html_report(_stored_run(made_up_audit()))
    jax_part = page[page.index('id="audit-1-1"'):page.index('id="audit-1-2"')]
    # Only the second sample dispatched and moved arrays: one strip of marks, its counts said in words.
    assert jax_part.count('class="dispatch"') == 1 and jax_part.count('class="moved"') == 1
    assert 'class="transfer to-device"' in jax_part and 'class="transfer to-host"' in jax_part
    said = ("1,000 eager dispatches, 1 jitted call, 2 host-to-device transfers (8 MiB), "
            "1 device-to-host transfer (4 B)")
    assert f'<text class="moved" x="170" y="{24 + 44 + 38 + 24}" fill="#444">{said}</text>' in jax_part  # 2nd row
    assert "in all samples: " + said in jax_part  # the interval's note, under the figure
    assert "their places are not times" in jax_part  # the caption: counted, not timed
    # The strip makes the row taller, so the fair figure moves down by it.
    assert f'<rect class="fair" x="170" y="{24 + 2 * 44 + 32 + 3}"' in jax_part
    python_part = page[page.index('id="audit-1-2"'):]
    assert 'class="dispatch"' not in python_part and 'class="transfer' not in python_part
    assert 'class="moved"' not in python_part and "no JAX dispatch or transfer" in python_part


def _stored_run(audit: ScriptAudit):
    with tempfile.TemporaryDirectory() as folder, open_store(Path(folder) / "r.db") as store:
        return store.run(record_audit(store, audit, environment=ENV).run_id)


def test_no_save_records_nothing_and_the_default_database_is_used_otherwise(tmp_path):
    write(tmp_path, "plain.py", """\
        import time
        t0 = time.perf_counter()
        total = sum(range(1000))
        print(time.perf_counter() - t0)
    """)
    done = _without_db("doctor", "--run", "plain.py", "-q", "--no-save", cwd=tmp_path)
    assert "plain.py:2-4" in done.stdout and "recorded" not in done.stderr
    assert not (tmp_path / ".levelbench").exists()
    quiet = _without_db("doctor", "--run", "plain.py", "-q", cwd=tmp_path)
    assert quiet.stderr == ""  # -q: the script's output captured, and nothing said unless it went wrong
    done = _without_db("doctor", "--run", "plain.py", cwd=tmp_path)
    assert f"recorded as run 2 (ok) in {Path('.levelbench') / 'results.db'}" in done.stderr, done.stderr
    with open_store(tmp_path / ".levelbench" / "results.db") as store:
        assert [r.kind for r in store.runs()] == ["doctor-run", "doctor-run"]


def _without_db(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    """``python -m levelbench ARGS`` with no $LEVELBENCH_DB: the default database, in ``cwd``."""
    env = {k: v for k, v in os.environ.items() if k != "LEVELBENCH_DB"}
    return subprocess.run([sys.executable, "-m", "levelbench", *args], capture_output=True, text=True, cwd=cwd,
                          env=env, timeout=300)


def test_a_database_that_cannot_be_opened_is_said_once_and_the_report_is_kept(tmp_path):
    write(tmp_path, "plain.py", """\
        import time
        t0 = time.perf_counter()
        total = sum(range(1000))
        print(time.perf_counter() - t0)
    """)
    not_a_db = tmp_path / "notes.txt"
    not_a_db.write_text("my notes\n" * 100)
    done = levelbench_cli("doctor", "--run", "plain.py", "-q", "--format", "json", "--db", str(not_a_db), cwd=tmp_path)
    assert done.returncode == 2
    assert json.loads(done.stdout)["intervals"][0]["opening_line"] == 2  # the whole report, on stdout
    said = [line for line in done.stderr.splitlines() if "not recorded" in line]
    assert len(said) == 1 and said[0].startswith("levelbench doctor: the audit above was not recorded: ")
    assert not_a_db.read_text() == "my notes\n" * 100


def test_db_and_no_save_are_for_run(tmp_path):
    for option in (["--db", "x.db"], ["--no-save"]):
        done = levelbench_cli("doctor", "x.py", *option, cwd=tmp_path)
        assert done.returncode == 2 and f"{option[0]} is for --run SCRIPT.py" in done.stderr
    assert not (tmp_path / "x.db").exists()


def test_the_stored_document_is_plain_json_in_the_results_table(tmp_path):
    with open_store(tmp_path / "r.db") as store:
        record_audit(store, made_up_audit(), environment=ENV)
    with sqlite3.connect(tmp_path / "r.db") as conn:
        (text,) = conn.execute("SELECT comparison FROM results ORDER BY id LIMIT 1").fetchone()
        version = conn.execute("PRAGMA user_version").fetchone()[0]
    assert json.loads(text)["script_audit"]["interval"]["fair"]["median"] == 0.0421
    assert version == 3  # no schema change


def test_a_report_of_a_workload_run_and_a_doctor_run_draws_each_its_own_way(tmp_path):
    pytest.importorskip("matplotlib")
    with open_store(tmp_path / "r.db") as store:
        workloads = record(store, [result("matmul", {"numpy": ("numpy", 2e-3)})])
        audited = record_audit(store, made_up_audit(), environment=ENV).run_id
        page = html_report([store.run(workloads), store.run(audited)])
    assert "1 workload(s), 1 doctor --run audit(s)" in page
    assert page.count('class="plot plot-timeline"') == 2 and 'class="plot plot-medians"' in page
    assert "<h2>matmul</h2>" in page and "seed.py lines 11-13" not in page.split('class="script-audit"')[0]


def test_a_ctrl_c_while_recording_keeps_what_was_recorded_and_ends_interrupted(tmp_path, monkeypatch):
    real_add = Store.add_result
    calls = []

    def add_then_interrupt(self, run_id, result):
        calls.append(result)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_add(self, run_id, result)

    monkeypatch.setattr(Store, "add_result", add_then_interrupt)
    with open_store(tmp_path / "r.db") as store:
        outcome = record_audit(store, made_up_audit(), environment=ENV)  # the script finished: Ctrl-C still wins
        run = store.run(outcome.run_id)
    assert (outcome.status, run.status, len(run.results)) == ("interrupted", "interrupted", 1)
