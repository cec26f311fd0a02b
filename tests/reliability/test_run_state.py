"""Items 1 and 3: a run's stored status says what happened to it, never "ok" for a run that failed."""

import os
import subprocess
import sys
import textwrap

import pytest
from _support import history, results_of, small_disk, workload

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability


def test_a_run_whose_workloads_all_fail_is_failed_and_one_with_some_failing_is_partial(tmp_path):
    db = tmp_path / "r.db"
    r = lb("run", "-w", workload("RAISE"), "--budget", "0.1", "--db", str(db))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    r = lb("run", "-w", workload("RAISE"), "-w", workload("QUICK"), "--budget", "0.1", "--no-diagnose",
           "--db", str(db))
    assert r.returncode == 1 and "Traceback" not in r.stderr
    first, second = history(db)
    assert first["status"] == "failed" and "RAISE (seed=0): failed" in first["error"]
    assert second["status"] == "partial" and "1 of 2 workload(s) did not finish" in second["error"]


INJECT = textwrap.dedent("""
    import sys
    from levelbench.store._store import Store
    original, calls = Store.add_result, []

    def add_result(self, run_id, result):
        calls.append(result)
        if len(calls) == 2:  # the second workload's result cannot be written
            raise OSError(28, "No space left on device (injected)")
        return original(self, run_id, result)

    Store.add_result = add_result
    from levelbench._cli.main import main
    main(sys.argv[1:], prog_name="levelbench")
""")


def test_an_unexpected_exception_mid_run_stores_the_run_as_failed_with_the_reason(tmp_path):
    db = tmp_path / "r.db"
    r = subprocess.run([sys.executable, "-c", INJECT, "run", "-w", workload("QUICK"), "--ms", "1,2,3",
                        "--budget", "0.1", "--no-diagnose", "--in-process", "--db", str(db)],
                       capture_output=True, text=True, timeout=300)
    assert r.returncode == 1, r.stderr
    assert "Traceback" not in r.stderr + r.stdout
    assert "No space left on device (injected)" in r.stderr and "No space" not in r.stdout
    assert "recorded as run 1 (failed)" in r.stderr
    (run,) = history(db)
    assert run["status"] == "failed" and "No space left on device (injected)" in run["error"]
    stored = results_of(db)
    assert [(s["params"]["ms"], s["status"]) for s in stored] == [(1.0, "ok"), (3.0, "skipped")]
    assert stored[1]["error"].startswith("not run")


def test_a_disk_that_fills_up_mid_run_never_leaves_the_run_ok(tmp_path):
    with small_disk(tmp_path / "disk", "1m") as disk:
        db, filler = disk / "r.db", disk / "filler"
        r = lb("run", "-w", workload("QUICK"), "-w", workload("FILL"), "-w", workload("QUICK"), "--budget", "0.1",
               "--no-diagnose", "--in-process", "--db", str(db), env={"LEVELBENCH_TEST_FILL": str(filler)})
        assert r.returncode == 2, r.stdout + r.stderr
        assert "Traceback" not in r.stdout + r.stderr
        # One line on stderr, saying how the run reads now; before: three lines on stdout that
        # contradicted each other ("will show it as abandoned", the error, "recorded as run 1 (failed)")
        (said,) = r.stderr.strip().splitlines()
        assert said.startswith("levelbench run: disk full") and "recorded as run" not in r.stdout, r.stdout
        assert "disk full" not in r.stdout and "could not record" not in r.stdout
        os.unlink(filler)
        (run,) = history(db)
        assert run["status"] in ("failed", "abandoned") and run["status"] in said, said
        assert results_of(db)[0]["status"] == "ok"  # what finished before the disk filled is kept
