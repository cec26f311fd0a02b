"""Candidates kept apart: helper threads waited out, worker processes, failures contained.

The interfering pair (tests/workloads/interference.py) slows itself down exactly as thread pools
do: ``spinner`` leaves a thread burning a core after each call, ``victim`` needs both cores.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

import pytest

import levelbench
from levelbench import Builder, ComparisonError
from levelbench._measuring.threads import can_inspect, running_threads, wait_until_quiet
from conftest import levelbench_argv
from conftest import levelbench_cli as lb

HERE = Path(__file__).parent
INTERFERENCE = HERE / "workloads" / "interference.py"

needs_proc = pytest.mark.skipif(not can_inspect(), reason="thread states are read from Linux /proc")
needs_two_cores = pytest.mark.skipif(len(os.sched_getaffinity(0)) < 2,
                                     reason="interference needs 2 cores: one for the spinning thread, one for the rest")
FAST = {"environment": False, "peak": False}


def target(name: str) -> str:
    return f"{INTERFERENCE}:{name}"


def interference_module():
    spec = importlib.util.spec_from_file_location("interference_for_tests", INTERFERENCE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def spin_until(stop: threading.Event) -> threading.Thread:
    """A thread that keeps a core busy (hashing: the GIL is released) until ``stop`` is set."""
    chunk = bytes(4 << 20)

    def spin() -> None:
        while not stop.is_set():
            hashlib.sha256(chunk).digest()

    t = threading.Thread(target=spin, daemon=True)
    t.start()
    return t


def processes_with(marker: str) -> list[int]:
    """Pids of live processes whose environment holds ``marker`` (the workers of one test)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if marker.encode() in f.read():
                    with open(f"/proc/{entry}/stat") as s:
                        if s.read().rpartition(")")[2].split()[0] != "Z":
                            found.append(int(entry))
        except OSError:
            continue
    return found


def wait_for(condition, seconds: float) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; whether it held."""
    until = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > until:
            return False
        time.sleep(0.05)
    return True


@pytest.fixture
def marker(monkeypatch) -> str:
    """An environment marker that every worker process started by this test inherits."""
    value = f"levelbench-test-{uuid.uuid4().hex}"
    monkeypatch.setenv("LEVELBENCH_TEST_MARKER", value)
    return value


# -- waiting for helper threads -----------------------------------------------------------------
@needs_proc
def test_a_spinning_thread_is_seen_running_and_waited_out():
    """A hashing thread reads as running in /proc, and the wait lasts until it has stopped: the thread
    spins until an event that another thread sets, and the wait returns quiet only after that."""
    stop = threading.Event()
    t = spin_until(stop)
    me = threading.get_native_id()
    assert wait_for(lambda: running_threads([os.getpid()], exclude=(me,)), 10), "a hashing thread must show as running"
    stopped_at = []

    def stop_later():
        time.sleep(0.1)
        stopped_at.append(time.perf_counter())
        stop.set()

    threading.Thread(target=stop_later, daemon=True).start()
    w = wait_until_quiet([os.getpid()], exclude_caller=True, limit=60)
    returned = time.perf_counter()
    assert w.quiet and w.measured, w
    assert stopped_at and stopped_at[0] <= returned, "the wait ended while the thread still spun"
    t.join()


@needs_proc
def test_a_thread_that_never_stops_is_reported_after_the_limit():
    """A thread still spinning at the limit: the wait ends there, not quiet, and names it."""
    stop = threading.Event()
    t = spin_until(stop)
    try:
        w = wait_until_quiet([os.getpid()], exclude_caller=True, limit=0.2)
    finally:
        stop.set()
    assert not w.quiet and w.seconds >= 0.2
    assert w.running and all(f"{os.getpid()}/" in r for r in w.running)
    t.join()


class ScriptedThreads:
    """Stands in for /proc and the clock under `wait_until_quiet`: look n finds ``script[n]`` (the running
    threads' names; the last entry repeats), and each poll's sleep moves the clock by its length."""

    def __init__(self, monkeypatch, script):
        from levelbench._measuring import threads

        self.now, self.looks, self.script = 0.0, 0, script
        monkeypatch.setattr(threads, "can_inspect", lambda: True)
        monkeypatch.setattr(threads, "running_threads", self.running)
        monkeypatch.setattr(threads.time, "perf_counter", lambda: self.now)
        monkeypatch.setattr(threads.time, "sleep", self.sleep)

    def running(self, pids, exclude=()):
        found = self.script[min(self.looks, len(self.script) - 1)]
        self.looks += 1
        return list(found)

    def sleep(self, seconds):
        self.now += seconds


@pytest.mark.parametrize("script, poll, confirm, seconds, looks", [
    ([[]], 0.01, 3, 0.0, 3),  # nothing runs: no wait to count, three quiet looks confirm it
    ([["1/2 spin"]] * 10 + [[]], 0.01, 3, 0.1, 13),  # counted to the first quiet look, not the confirming ones
    ([["1/2 spin"], [], ["1/2 spin"], [], [], []], 0.01, 3, 0.03, 6),  # a quiet look broken off starts again
    ([["1/2 spin"]] * 4 + [[]], 0.05, 2, 0.2, 6),
])
def test_the_wait_counts_to_the_first_of_the_quiet_looks_that_confirm_it(monkeypatch, script, poll, confirm,
                                                                          seconds, looks):
    """The waiting rule on a scripted clock: seconds up to the first of ``confirm`` quiet looks in a row."""
    fake = ScriptedThreads(monkeypatch, script)
    w = wait_until_quiet([1], poll=poll, confirm=confirm, limit=60)
    assert w.quiet and w.measured and w.running == ()
    assert w.seconds == pytest.approx(seconds, abs=1e-12) and fake.looks == looks


def test_the_wait_gives_up_at_the_limit_and_names_the_threads_still_running(monkeypatch):
    fake = ScriptedThreads(monkeypatch, [["7/8 pool"], ["7/8 pool"], [], ["7/9 other"]])
    w = wait_until_quiet([7], poll=0.1, confirm=3, limit=0.5)
    assert not w.quiet and w.running == ("7/9 other",)
    assert w.seconds == pytest.approx(0.5, abs=1e-9) and fake.looks == 6


# -- in one process: the distortion is measured and reported -----------------------------------
@needs_proc
@needs_two_cores
@pytest.mark.wallclock
def test_in_process_interference_is_measured_and_reported_with_both_ratios(quiet_machine):
    """On real threads and a real clock: the spinner's helpers, timed, slow the victim back to back
    (ratio < 0.8x the quiet one), and LB305 reports it with both ratios."""
    m = interference_module()
    c = levelbench.compare({"victim": m.victim(), "spinner": m.spinner()}, budget=3, min_rounds=10, **FAST)
    assert c.isolation.mode == "in-process"
    assert c.isolation.spin["spinner"] > 0.03 > c.isolation.spin["victim"]
    quiet, b2b = c.ratio("spinner"), c.back_to_back_ratio("spinner")
    # back to back, the victim runs while the spinner's thread holds a core: about 2x slower
    assert b2b.estimate < 0.8 * quiet.estimate, (b2b, quiet)
    found = [f for f in c.findings if f.code == "LB305"]
    assert len(found) == 1, str(c)
    f = found[0]
    assert f.severity == levelbench.Severity.WARNING
    assert "back to back" in f.title and f"{quiet.estimate:.3g}x" in f.title
    assert "helper threads still running after the calls returned: spinner" in f.evidence
    assert "isolate=True" in f.fix
    text = str(c)
    assert "LB305" in text and "timed in this process" in text


def test_in_process_interference_is_reported_with_both_ratios_on_the_fake_clock(monkeypatch):
    """The LB305 logic on given times (interference.py's FakeSpin): back to back the victim runs at half
    speed (the spinner then reads 0.025x it), with quiet gaps at full speed (0.05x); the finding names
    both ratios and the spinner's 60 ms spin, measured after its calibration."""
    fake = interference_module().FakeSpin(monkeypatch)
    c = levelbench.compare(fake.candidates(), budget=3, min_rounds=10, timer=fake.clock, **FAST)
    assert c.isolation.mode == "in-process"
    assert c.isolation.spin == {"victim": 0.0, "spinner": pytest.approx(0.06)}
    quiet, b2b = c.ratio("spinner"), c.back_to_back_ratio("spinner")
    assert quiet.estimate == pytest.approx(0.05) and quiet.lower == pytest.approx(0.05)
    assert b2b.estimate == pytest.approx(0.025) and not b2b.contains(0.05)
    found = [f for f in c.findings if f.code == "LB305"]
    assert len(found) == 1, str(c)
    f = found[0]
    assert f.severity == levelbench.Severity.WARNING
    assert f.title == ("candidates slow each other down in one process: back to back, spinner reads 0.025x victim "
                       "instead of 0.05x (-50%)")
    assert "helper threads still running after the calls returned: spinner 60 ms" in f.evidence
    assert "isolate=True" in f.fix
    text = str(c)
    assert "LB305" in text and "timed in this process" in text


def test_without_interference_the_fake_pair_gets_no_finding(monkeypatch):
    """The same candidates, the victim never slowed: both ratios agree, no LB305 (the check can stay quiet)."""
    fake = interference_module().FakeSpin(monkeypatch, slowdown=1.0)
    c = levelbench.compare(fake.candidates(), budget=3, min_rounds=10, timer=fake.clock, **FAST)
    assert c.back_to_back_ratio("spinner").estimate == pytest.approx(c.ratio("spinner").estimate)
    assert not [f for f in c.findings if f.code == "LB305"]


@needs_proc
def test_candidates_that_do_not_interfere_get_no_finding():
    m = interference_module()
    c = levelbench.compare({"a": m.plus_one(2), "b": m.plus_one(2)}, budget=1, **FAST)
    assert not [f for f in c.findings if f.code == "LB305"]
    assert set(c.isolation.back_to_back) == {"a", "b"}  # measured, and found harmless


# -- worker processes -----------------------------------------------------------------------------
def test_builders_run_each_in_its_own_process_in_blocks_that_never_overlap(tmp_path):
    log = tmp_path / "calls.log"
    c = levelbench.compare({"A": Builder(target("logged"), {"name": "A", "log": str(log)}),
                            "B": Builder(target("logged"), {"name": "B", "log": str(log)})}, budget=0.5, **FAST)
    assert c.isolation.mode == "workers" and c.isolation.n_workers == 2
    rows = sorted((float(start), float(end), name, int(pid))
                  for name, start, end, pid in (line.split() for line in log.read_text().splitlines()))
    pids = {name: {pid for *_, n, pid in rows if n == name} for name in "AB"}
    assert len(pids["A"]) == len(pids["B"]) == 1 and pids["A"] != pids["B"]
    assert os.getpid() not in pids["A"] | pids["B"]
    for (_, end, *_), (start, *_) in zip(rows, rows[1:]):
        assert end <= start + 1e-4, "two candidates ran at the same time"
    names = [name for *_, name, _ in rows]
    turns = [n for i, n in enumerate(names) if i == 0 or names[i - 1] != n]
    assert all(a != b for a, b in zip(turns, turns[1:]))
    assert len(turns) >= 2 * 5  # first calls, calibration, then at least 5 rounds of blocks
    assert len(c.rounds["A"]) == len(c.rounds["B"]) >= 5


def test_outputs_are_checked_across_processes():
    with pytest.raises(ComparisonError, match="not the same computation: two disagrees with one") as e:
        levelbench.compare({"one": target("plus_one"), "two": target("plus_two")}, **FAST)
    assert "max abs error 1" in str(e.value)


def test_a_worker_that_crashes_mid_round_fails_its_candidate_only():
    # It dies at its 25th call, inside the first round's samples: at 400 calls a loaded machine (a CI rehearsal
    # beside three helpers) reached the comparison's CI before the crash, and the candidate was measured, not failed
    c = levelbench.compare({"base": target("plus_one"), "crash": Builder(target("dies_after"), {"calls": 25}),
                            "other": target("plus_one")}, budget=1, **FAST)
    assert set(c.measurements) == {"base", "other"}
    assert "the worker exited with code 7" in c.failed["crash"]
    assert "failed crash: the worker exited with code 7" in str(c)


def test_a_crashing_baseline_fails_the_comparison():
    with pytest.raises(ComparisonError, match="the baseline 'crash' failed: the worker exited with code 7"):
        levelbench.compare({"crash": Builder(target("dies_after"), {"calls": 25}), "other": target("plus_one")},
                           budget=1, **FAST)


@needs_proc
def test_a_hanging_worker_is_stopped_at_the_timeout(marker):
    # It hangs at its 25th call, before the 5 rounds of >= 5 samples (and a warm-up each) a comparison
    # always takes could end: at 400 calls, a loaded machine (sleep(1 ms) lasting 4 ms) took fewer calls
    # per block, the comparison reached its CI before the hang, and nothing timed out.
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="did not finish within timeout=4 s"):
        levelbench.compare({"a": target("plus_one"), "hang": Builder(target("hangs_after"), {"calls": 25})},
                           budget=30, timeout=4, **FAST)
    assert time.monotonic() - started < 20
    assert processes_with(marker) == []


def test_isolate_true_refuses_plain_callables_and_names_them():
    m = interference_module()
    with pytest.raises(ValueError, match=r"'plain' is a plain callable.*'FILE.py:NAME'"):
        levelbench.compare({"plain": m.plus_one(), "built": target("plus_one")}, isolate=True)


def test_builder_mistakes_are_refused_with_the_fix():
    with pytest.raises(LookupError, match=r"'nope.py' does not exist \(expected FILE.py:NAME"):
        levelbench.compare({"a": "nope.py:f", "b": target("plus_one")})
    folder = Path(tempfile.mkdtemp(suffix=".py"))  # probe defect 38: a folder named x.py "does not exist"
    with pytest.raises(LookupError, match=r"is a directory, not a Python file \(expected FILE.py:NAME"):
        levelbench.compare({"a": f"{folder}:f", "b": target("plus_one")})
    with pytest.raises(RuntimeError, match="building candidate 'x' failed in its worker: TypeError: candidate 'x': "
                                           "expected a callable"):
        levelbench.compare({"x": target("not_a_candidate"), "y": target("plus_one")}, **FAST)


def test_plain_candidates_and_builders_mix_in_this_process():
    m = interference_module()
    c = levelbench.compare({"plain": m.plus_one(), "built": target("plus_one")}, budget=0.3, **FAST)
    assert c.isolation.mode == "in-process" and set(c.measurements) == {"plain", "built"}


def test_isolation_round_trips_through_json():
    c = levelbench.compare({"a": target("plus_one"), "b": target("plus_one")}, budget=0.3, **FAST)
    back = levelbench.Comparison.from_dict(json.loads(json.dumps(c.to_dict())))
    assert back.isolation == c.isolation and back.isolation.mode == "workers"


# -- levelbench run ------------------------------------------------------------------------------
def test_run_groups_workers_by_framework_or_by_candidate(tmp_path):
    for isolation, workers in (("framework", 1), ("candidate", 2)):
        out = tmp_path / f"{isolation}.json"
        r = lb("run", "-w", f"{INTERFERENCE}:PAIR", "--budget", "0.5", "--isolation", isolation, "--no-save",
               "--json", str(out))
        assert r.returncode == 0, r.stderr
        iso = json.loads(out.read_text())["results"][0]["comparison"]["isolation"]
        assert iso["mode"] == "workers" and iso["grouping"] == isolation
        assert len(set(iso["workers"].values())) == workers  # both candidates are NumPy
        assert f"timed in {workers} worker process" in r.stdout


@needs_proc
def test_ctrl_c_while_sampling_stops_every_worker(marker, tmp_path):
    """Ctrl-C while a block of samples runs: exit 130, no traceback, the JSON says interrupted, and no
    worker is left. The signal goes once a candidate has written that it is sampling; that candidate
    then waits for the test, so the run cannot have ended before the signal (before, a fixed 3 s
    sleep once came after the run had ended)."""
    sampling, signalled = tmp_path / "sampling", tmp_path / "signalled"
    proc = subprocess.Popen([*levelbench_argv("run"), "-w", f"{INTERFERENCE}:PAUSED", "--budget", "60",
                             "--isolation", "candidate", "--no-save", "--json", str(tmp_path / "r.json")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, interference_module().PAUSE_DIR: str(tmp_path)})
    if not wait_for(lambda: sampling.exists() or proc.poll() is not None, 120) or proc.poll() is not None:
        proc.kill()
        pytest.fail(f"the run never began sampling (exit {proc.wait()}): {proc.communicate()[1][-3000:]}")
    proc.send_signal(signal.SIGINT)
    signalled.write_text("sent")  # the held candidate may go on: the signal is on its way
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert json.loads((tmp_path / "r.json").read_text())["results"][0]["status"] == "interrupted"
    assert wait_for(lambda: processes_with(marker) == [], 10), processes_with(marker)


@needs_proc
def test_workers_do_not_outlive_a_killed_parent(marker):
    script = (f"import levelbench; levelbench.compare({{'a': {target('plus_one')!r}, 'b': {target('plus_one')!r}}}, "
              "budget=120, rel_ci=1e-9, environment=False, peak=False)")
    parent = subprocess.Popen([sys.executable, "-c", script])
    deadline = time.monotonic() + 60
    while len(processes_with(marker)) < 3 and time.monotonic() < deadline:
        time.sleep(0.2)
    assert len(processes_with(marker)) >= 3, "the workers never started"
    parent.send_signal(signal.SIGKILL)
    parent.wait()
    deadline = time.monotonic() + 10
    while processes_with(marker) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert processes_with(marker) == []
