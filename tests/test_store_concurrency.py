"""Two processes writing at once lose nothing; Ctrl-C keeps the results already recorded."""

from __future__ import annotations

import multiprocessing
import os
import signal
import subprocess
import sys
import textwrap
import time

from test_store_fakes import ENV, result

from levelbench.store import open_store

ROWS = 150


def _writer(path: str, name: str, start, rows: int) -> None:
    # Each writer opens the (not yet existing) database itself, at the same moment as the other (`start`: a
    # barrier both writers reach once their imports are done).
    doc = result(name, {"a": ("numpy", 1e-3), "b": ("jax", 2e-3)}, n=10).to_dict()
    start.wait()
    with open_store(path) as store:
        run_id = store.begin_run(kind="run", argv=[name], environment=ENV, git_commit="")
        for i in range(rows):
            store.add_result(run_id, {**doc, "params": {"i": i}})
            time.sleep(0.001)  # give the other writer a chance at the lock: make the writes interleave
        store.end_run(run_id, "ok")


def _opener(path: str, start, failures) -> None:
    start.wait()
    try:
        open_store(path).close()
    except Exception as e:  # what a user would see instead of an opened store
        failures.put(f"{type(e).__name__}: {e}")


def test_forty_processes_creating_one_new_database_at_once_all_open_it(tmp_path):
    # Read field by field, one process could see another's half-made schema and call the file
    # "another program's database"; the identity is now one snapshot, checked again under the lock.
    path = str(tmp_path / "new.db")
    ctx = multiprocessing.get_context("spawn")
    start, failures = ctx.Event(), ctx.Queue()
    openers = [ctx.Process(target=_opener, args=(path, start, failures)) for _ in range(40)]
    for p in openers:
        p.start()
    start.set()
    for p in openers:
        p.join(60)
    seen = []
    while not failures.empty():
        seen.append(failures.get())
    assert seen == [] and all(p.exitcode == 0 for p in openers)
    with open_store(path) as store:
        assert store.runs() == []


def test_two_processes_writing_at_once_lose_nothing(tmp_path):
    path = str(tmp_path / "shared.db")
    ctx = multiprocessing.get_context("spawn")
    # A barrier, not an event set once both are started: a spawned writer still importing when an event is set
    # (a loaded machine) starts late, and the other can finish alone; here each waits until the other is ready.
    start = ctx.Barrier(2)
    writers = [ctx.Process(target=_writer, args=(path, name, start, ROWS)) for name in ("left", "right")]
    for w in writers:
        w.start()
    for w in writers:
        w.join(timeout=120)
    assert [w.exitcode for w in writers] == [0, 0]

    with open_store(path) as store:
        runs = store.runs()
        assert sorted(r.argv[0] for r in runs) == ["left", "right"]
        for r in runs:
            full = store.run(r.id)
            assert r.status == "ok"
            assert [res.params["i"] for res in full.results] == list(range(ROWS))
            assert {res.workload for res in full.results} == {r.argv[0]}
        order = [r[0] for r in store._conn.execute("SELECT run_id FROM results ORDER BY id")]
        assert sum(a != b for a, b in zip(order, order[1:])) > 2, "the writers never overlapped: nothing was tested"
        n_candidates = store._conn.execute("SELECT COUNT(*) FROM candidates").fetchone()[0]
        assert n_candidates == 2 * ROWS * 2
        assert store._conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


RECORDER = textwrap.dedent("""
    import sys, time
    sys.path.insert(0, {tests!r})
    from test_store_fakes import ENV, result
    from levelbench.store import open_store

    store = open_store({path!r})
    with store.recording(kind="run", argv=["slow"], environment=ENV, git_commit="") as run_id:
        for i in range(200):
            store.add_result(run_id, result("step", {{"a": ("numpy", 1e-3)}}, params={{"i": i}}, n=10))
            print(i, flush=True)
            time.sleep(0.05)
""")


def test_ctrl_c_mid_run_keeps_the_finished_results_and_marks_the_run_interrupted(tmp_path):
    path = str(tmp_path / "r.db")
    script = tmp_path / "recorder.py"
    script.write_text(RECORDER.format(tests=os.path.dirname(__file__), path=path))
    proc = subprocess.Popen([sys.executable, str(script)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stdout is not None
    printed = []
    deadline = time.monotonic() + 60
    while len(printed) < 5 and time.monotonic() < deadline:
        printed.append(int(proc.stdout.readline()))
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    printed += [int(line) for line in out.split()]
    assert proc.returncode != 0 and "KeyboardInterrupt" in err

    with open_store(path, create=False) as store:
        run = store.run("latest")
    assert run.status == "interrupted"
    recorded = [r.params["i"] for r in run.results]
    # Every result reported as recorded is there; at most the one being written when Ctrl-C came is not.
    assert recorded == list(range(len(recorded)))
    assert len(printed) >= 5 and printed == list(range(len(printed)))
    assert len(printed) <= len(recorded) <= len(printed) + 1
