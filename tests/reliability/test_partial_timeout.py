"""Item 12, run part: a workload stopped by --timeout keeps what it measured before it: status
`timeout`, with a comparison marked partial that holds the rounds timed so far."""

import json
import time

import pytest
from _support import history, workload

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability


def _run(tmp_path, *args, timeout="8"):
    out = tmp_path / "r.json"
    started = time.monotonic()
    r = lb("run", *args, "--timeout", timeout, "--no-diagnose", "--json", str(out), "--db", str(tmp_path / "r.db"))
    took = time.monotonic() - started
    assert "Traceback" not in r.stderr, r.stderr
    (result,) = json.loads(out.read_text())["results"]
    return r, result, took


def test_rounds_stopped_because_the_timeout_is_near_are_a_whole_result_not_a_timeout(tmp_path):
    # The rounds stop when another might not end before the deadline. The timeout never came, so this
    # is not `timeout` ("stopped after 8 s (--timeout)" after 5 s, run failed, rc 1): it is ok, and says
    # it stopped early, and after how long.
    r, result, took = _run(tmp_path, "-w", workload("UNENDING"), "--budget", "600")
    assert r.returncode == 0, r.stdout + r.stderr
    assert result["status"] == "ok" and result["error"] == ""
    c = result["comparison"]
    assert c["partial"] == "" and set(c["measurements"]) == {"a", "b"} and c["failed"] == {}
    assert "another round might not have ended before the timeout" in c["stopped_early"]
    assert "of the 600 s budget" in c["stopped_early"]
    assert all(len(rounds) >= 1 for rounds in c["rounds"].values())
    assert 0 < result["duration"] <= took and took < 8 + 30
    assert "note: stopped early" in r.stdout and "--timeout" not in r.stdout
    (run,) = history(tmp_path / "r.db")
    assert run["status"] == "ok"


def test_a_candidate_that_hangs_is_stopped_and_every_round_before_it_is_kept(tmp_path):
    # 15 s, not 8: on a slow machine the workers' start-up can leave too little time for the round after the
    # hang, so the run ends early, whole, before the stalling candidate is called again (it hangs 1.5 s in)
    r, result, _ = _run(tmp_path, "-w", workload("LATE_HANG"), "--isolation", "candidate", "--budget", "600",
                        timeout="15")
    assert result["status"] == "timeout"
    c = result["comparison"]
    assert c is not None, result["error"]
    # the hanging candidate's blocks before it hung are kept too (its worker could not hand them over:
    # the parent kept them as they came), with its first call; nothing is reported as failed
    assert list(c["measurements"]) == ["base", "slow"] and c["failed"] == {}
    slow_rounds = [t for t in c["rounds"]["slow"] if t is not None]
    assert len(c["rounds"]["base"]) >= 1 and slow_rounds
    slow = c["measurements"]["slow"]
    assert slow["samples"] and slow["first_call"] > 0 and not slow["target_reached"]
    assert "the timeout came during slow's block of samples" in c["partial"]
    assert f"slow stopped there, kept with {len(slow_rounds)} round(s)" in c["partial"]
    # recorded too: history shows the run, export gives the partial comparison back
    exported = lb("export", "latest", "--db", str(tmp_path / "r.db"))
    assert exported.returncode == 0, exported.stderr
    (stored,) = json.loads(exported.stdout)["results"]
    assert stored["status"] == "timeout" and stored["comparison"]["partial"] == c["partial"]


def test_when_the_baseline_hangs_the_ratios_are_still_to_it_over_the_rounds_before(tmp_path):
    r, result, _ = _run(tmp_path, "-w", workload("LATE_HANG"), "--which", "base", "--isolation", "candidate",
                        "--budget", "600", timeout="15")  # 15 s: as above
    c = result["comparison"]
    assert c is not None, result["error"]
    assert c["baseline"] == "base" and "base stopped there, kept with" in c["partial"]
    assert "r.json" not in r.stdout and "ratio to base" in r.stdout


def test_a_hang_before_any_round_is_a_plain_timeout_that_says_where(tmp_path):
    r, result, _ = _run(tmp_path, "-w", workload("LATE_HANG"), "--stall=-1", "--isolation", "candidate",
                        "--budget", "600", timeout="5")
    assert result["status"] == "timeout" and result["comparison"] is None
    assert "no result after 5 s (--timeout): the timeout came during slow's first call" in result["error"]
