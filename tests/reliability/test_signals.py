"""Item 2: SIGINT, SIGTERM and SIGHUP stop a run cleanly; after SIGKILL the run reads as abandoned and
its workers do not outlive it."""

import os
import signal
import subprocess
import sys
import time

import pytest
from conftest import levelbench_argv
from _support import history, marked_processes, marker_env, results_of, wait_for, workload

pytestmark = pytest.mark.reliability


def _start(db, *workloads):
    env = {**os.environ, **marker_env()}
    args = [a for w in workloads for a in ("-w", workload(w))]
    proc = subprocess.Popen([*levelbench_argv("run"), *args, "--budget", "0.1", "--no-diagnose",
                             "--timeout", "600", "--db", str(db)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=env)
    return proc, env["LEVELBENCH_TEST_MARK"]


def _hanging_worker(db, mark):
    # the first workload is recorded and the second one's worker is up (building, for ever)
    return os.path.exists(db) and len(results_of(db)) == 1 and marked_processes(mark)


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM, signal.SIGHUP], ids=lambda s: s.name)
def test_a_stop_signal_keeps_what_finished_marks_the_run_interrupted_and_stops_the_workers(tmp_path, sig):
    db = tmp_path / "r.db"
    proc, mark = _start(db, "QUICK", "HANG")
    try:
        wait_for(lambda: _hanging_worker(db, mark))
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    assert "Traceback" not in out + err
    assert "interrupted: 1 workload(s) finished" in out
    (run,) = history(db)
    assert run["status"] == "interrupted" and sig.name in run["error"] + "SIGINT Ctrl-C"
    stored = results_of(db)
    assert [r["status"] for r in stored] == ["ok", "interrupted"]
    wait_for(lambda: not marked_processes(mark), timeout=15)


def test_after_sigkill_the_run_reads_as_abandoned_and_its_worker_exits(tmp_path):
    db = tmp_path / "r.db"
    proc, mark = _start(db, "QUICK", "HANG")
    try:
        wait_for(lambda: _hanging_worker(db, mark))
        workers = [p for p in marked_processes(mark) if p != proc.pid]
        assert workers
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    wait_for(lambda: not marked_processes(mark), timeout=15)  # the worker died with its parent
    (run,) = history(db)
    assert run["status"] == "abandoned"
    assert run["pid"] == proc.pid and f"pid {proc.pid}" in run["error"]


def test_after_sigkill_a_process_the_workload_started_does_not_outlive_it_either(tmp_path):
    # before, `sleep 1000` started by a build lived on with PPID 1; SIGTERM and --timeout killed it
    db = tmp_path / "r.db"
    proc, mark = _start(db, "SPAWN")
    try:
        wait_for(lambda: any(_command(pid) == "sleep 1000" for pid in marked_processes(mark)))
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=30)
    finally:
        proc.kill()
    wait_for(lambda: not marked_processes(mark), timeout=15)


def _command(pid: int) -> str:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            return f.read().replace(b"\0", b" ").decode().strip()
    except OSError:
        return ""


# Ctrl-C while a finished result is being recorded: before, the result was in the printed list but
# never stored (nor marked "not run"), so the run lost it. The signal is sent from inside the store's
# add_result, the narrowest place it could land.
SIGNAL_WHILE_RECORDING = """
import os, signal, sys, time
signal.signal(signal.SIGINT, signal.default_int_handler)  # even where the tests run with SIGINT ignored
from levelbench.store import _store

original = _store.Store.add_result
sent = []

def add_result(self, run_id, result):
    if not sent:
        sent.append(1)
        os.kill(os.getpid(), signal.{sig})
        time.sleep(0.2)  # the signal is due now, in the middle of recording
    return original(self, run_id, result)

_store.Store.add_result = add_result
from levelbench._cli import main
main(prog_name="levelbench", args=sys.argv[1:])
"""


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
def test_a_signal_while_a_result_is_recorded_keeps_that_result(tmp_path, sig):
    db = tmp_path / "r.db"
    proc = subprocess.run([sys.executable, "-c", SIGNAL_WHILE_RECORDING.replace("{sig}", sig.name), "run",
                           "-w", workload("QUICK"), "--ms", "0,1",
                           "--budget", "0.1", "--no-diagnose", "--timeout", "600", "--db", str(db)],
                          capture_output=True, text=True, timeout=300)
    assert proc.returncode == 130, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr
    (run,) = history(db)
    assert run["status"] == "interrupted"
    assert [r["status"] for r in results_of(db)] == ["ok", "skipped"]  # the first kept, the second never ran


# Defect 25 (explain/measure): Ctrl-C gave click's "Aborted!" and exit 1 (the "findings" code), SIGTERM a
# silent 143. Now one line, exit 130, and the child process running the user's code is stopped with it.
@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=lambda s: s.name)
@pytest.mark.parametrize("command", ["measure", "explain"])
def test_measure_and_explain_stop_on_a_signal_with_one_line_and_exit_130(tmp_path, sig, command):
    (tmp_path / "slow.py").write_text("import time\n\ndef never(x):\n    while True:\n        time.sleep(1)\n\n"
                                      "never_args = (1,)\n")
    args = (["measure", "time.sleep(100)", "-s", "import time"] if command == "measure"
            else ["explain", "slow.py::never"])
    env = {**os.environ, **marker_env()}
    mark = env["LEVELBENCH_TEST_MARK"]
    proc = subprocess.Popen(levelbench_argv(*args), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=env, cwd=tmp_path)
    try:
        wait_for(lambda: len(marked_processes(mark)) >= 2)  # the command and the child running the code
        time.sleep(0.5)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=60)
    finally:
        proc.kill()
    assert proc.returncode == 130, err
    name = "Ctrl-C" if sig == signal.SIGINT else "SIGTERM"
    assert err.startswith(f"levelbench {command}: interrupted ({name}) while "), err
    assert len(err.strip().splitlines()) == 1 and "Aborted" not in err and out == ""
    wait_for(lambda: not marked_processes(mark), timeout=15)
