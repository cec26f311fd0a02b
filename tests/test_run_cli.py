"""`levelbench run` as a user runs it: a subprocess, exit codes, output, failures isolated."""

import json
import os
import signal
import subprocess
import time
from pathlib import Path

from conftest import levelbench_argv
from conftest import levelbench_cli as lb

HERE = Path(__file__).parent
SIMPLE = HERE / "workloads" / "simple.py"


def test_run_user_workload_prints_a_table_and_json(tmp_path):
    out = tmp_path / "r.json"
    r = lb("run", "--workload", f"{SIMPLE}:SLEEPY", "--budget", "0.3", "--json", str(out), "--no-save")
    assert r.returncode == 0, r.stderr
    assert "ratio to base" in r.stdout and "slowed" in r.stdout
    doc = json.loads(out.read_text())
    assert doc["results"][0]["status"] == "ok"
    assert set(doc["results"][0]["comparison"]["measurements"]) == {"base", "slowed"}


def test_sweep_runs_the_grid(tmp_path):
    out = tmp_path / "r.json"
    r = lb("run", "--workload", f"{SIMPLE}:SLEEPY", "--ms", "1,2", "--budget", "0.2", "--json", str(out),
           "--no-save", "--in-process")
    assert r.returncode == 0, r.stderr
    params = [res["params"]["ms"] for res in json.loads(out.read_text())["results"]]
    assert params == [1.0, 2.0]


def test_a_crash_a_hang_and_an_exception_are_reported_and_the_run_goes_on(tmp_path):
    out = tmp_path / "r.json"
    r = lb("run", "-w", f"{SIMPLE}:CRASH", "-w", f"{SIMPLE}:HANG", "-w", f"{SIMPLE}:RAISE",
           "-w", f"{SIMPLE}:SLEEPY", "--timeout", "5", "--budget", "0.2", "--json", str(out), "--no-save")
    assert r.returncode == 1
    results = {res["workload"].split(":")[-1]: res for res in json.loads(out.read_text())["results"]}
    assert results["CRASH"]["status"] == "failed" and "exited with code 3" in results["CRASH"]["error"]
    assert results["HANG"]["status"] == "timeout" and "--timeout" in results["HANG"]["error"]
    assert results["RAISE"]["status"] == "failed" and "deliberate failure" in results["RAISE"]["error"]
    assert results["SLEEPY"]["status"] == "ok"
    assert "Traceback" not in r.stderr


def test_usage_errors_exit_2_with_the_accepted_values():
    r = lb("run", "--workload", "nope")
    assert r.returncode == 2 and "unknown workload 'nope': expected one of gru, lstm, matmul" in r.stderr
    r = lb("run", "--workload", "matmul", "--dtype", "float16")
    assert r.returncode == 2 and "--dtype must be one of float32, float64, got 'float16'" in r.stderr
    r = lb("run", "--workload", "matmul", "--bogus", "3")
    assert r.returncode == 2 and "no such option: --bogus" in r.stderr and "matmul: --n --dtype --seed" in r.stderr
    r = lb("run", "--workload", "matmul", "--n", "big")
    assert r.returncode == 2 and "--n expects an integer from 1 to 1,000,000, got 'big'" in r.stderr


def test_help_lists_workloads_and_their_parameters():
    r = lb("run", "--help")
    assert r.returncode == 0
    assert "--seq" in r.stdout and "matmul" in r.stdout and "--full" in r.stdout


def test_ctrl_c_stops_cleanly_and_prints_what_finished(tmp_path):
    """Ctrl-C while the second workload's worker hangs: the first's table printed and kept, exit 130. The
    signal goes once that worker has written that its build began (no fixed sleep)."""
    import threading

    out = tmp_path / "r.json"
    hanging = tmp_path / "hanging"
    proc = subprocess.Popen(
        [*levelbench_argv("run"), "-w", f"{SIMPLE}:SLEEPY", "-w", f"{SIMPLE}:HANG",
         "--budget", "0.2", "--json", str(out), "--no-save"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1", "LEVELBENCH_TEST_PAUSE_DIR": str(tmp_path)},
    )
    lines: list[str] = []
    first_done = threading.Event()

    def read() -> None:
        for line in proc.stdout:
            lines.append(line)
            if "ratio to base" in line:
                first_done.set()

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    assert first_done.wait(120), "the first workload never finished"
    until = time.monotonic() + 120
    while not hanging.exists() and proc.poll() is None and time.monotonic() < until:
        time.sleep(0.05)
    assert hanging.exists(), "the second workload's worker never began building it"
    proc.send_signal(signal.SIGINT)
    proc.wait(timeout=60)
    reader.join(timeout=10)
    stdout, stderr = "".join(lines), proc.stderr.read()
    assert proc.returncode == 130, stderr
    assert "ratio to base" in stdout  # the finished workload's table
    assert "interrupted: 1 workload(s) finished" in stdout
    results = json.loads(out.read_text())["results"]
    assert [r["status"] for r in results] == ["ok", "interrupted"]
    assert "Traceback" not in stderr
