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


def spin_for(seconds: float) -> threading.Thread:
    """A thread that keeps a core busy (hashing: the GIL is released) for ``seconds``."""
    chunk = bytes(4 << 20)
    until = time.perf_counter() + seconds

    def spin() -> None:
        while time.perf_counter() < until:
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


@pytest.fixture
def marker(monkeypatch) -> str:
    """An environment marker that every worker process started by this test inherits."""
    value = f"levelbench-test-{uuid.uuid4().hex}"
    monkeypatch.setenv("LEVELBENCH_TEST_MARKER", value)
    return value


# -- waiting for helper threads -----------------------------------------------------------------
@needs_proc
def test_a_spinning_thread_is_seen_running_and_waited_out():
    t = spin_for(0.15)
    time.sleep(0.01)
    me = threading.get_native_id()
    assert running_threads([os.getpid()], exclude=(me,)), "a hashing thread must show as running"
    w = wait_until_quiet([os.getpid()], exclude_caller=True)
    assert w.quiet and w.measured
    assert 0.08 < w.seconds < 1.0, w
    t.join()
    idle = wait_until_quiet([os.getpid()], exclude_caller=True)
    assert idle.quiet and idle.seconds < 0.05, idle


@needs_proc
def test_a_thread_that_never_stops_is_reported_after_the_limit():
    t = spin_for(1.0)
    time.sleep(0.01)
    w = wait_until_quiet([os.getpid()], exclude_caller=True, limit=0.2)
    assert not w.quiet and w.seconds >= 0.2
    assert w.running and all(f"{os.getpid()}/" in r for r in w.running)
    t.join()


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
    c = levelbench.compare({"base": target("plus_one"), "crash": Builder(target("dies_after"), {"calls": 400}),
                            "other": target("plus_one")}, budget=1, **FAST)
    assert set(c.measurements) == {"base", "other"}
    assert "the worker exited with code 7" in c.failed["crash"]
    assert "failed crash: the worker exited with code 7" in str(c)


def test_a_crashing_baseline_fails_the_comparison():
    with pytest.raises(ComparisonError, match="the baseline 'crash' failed: the worker exited with code 7"):
        levelbench.compare({"crash": Builder(target("dies_after"), {"calls": 400}), "other": target("plus_one")},
                           budget=1, **FAST)


@needs_proc
def test_a_hanging_worker_is_stopped_at_the_timeout(marker):
    started = time.monotonic()
    with pytest.raises(TimeoutError, match="did not finish within timeout=4 s"):
        levelbench.compare({"a": target("plus_one"), "hang": Builder(target("hangs_after"), {"calls": 400})},
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
    proc = subprocess.Popen([*levelbench_argv("run"), "-w", f"{INTERFERENCE}:PAIR", "--budget", "60",
                             "--isolation", "candidate", "--no-save", "--json", str(tmp_path / "r.json")],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while len(processes_with(marker)) < 3 and time.monotonic() < deadline:  # the run and its two workers
        time.sleep(0.2)
    time.sleep(3)  # into the sampling
    proc.send_signal(signal.SIGINT)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 130, stderr
    assert "Traceback" not in stderr
    assert json.loads((tmp_path / "r.json").read_text())["results"][0]["status"] == "interrupted"
    time.sleep(0.5)
    assert processes_with(marker) == []


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
