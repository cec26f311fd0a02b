"""The phase timers' build (``-DLEVELBENCH_RNN_TIMERS``) and ``benchmarks/rnn_phases.py``, which reads
them: every loop of a call is reported with its phases and its whole time, what the call spent
outside the loops is the rest of its wall time, and the ticks are converted at the counter's rate
the worker measured (``--tsc-ghz`` overrides it)."""

from __future__ import annotations

import os
import platform
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("jax")

ROOT = Path(__file__).resolve().parents[1]


@pytest.mark.slow
@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="the timers read the x86 time-stamp counter")
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ to build the timers' kernels with")
def test_rnn_phases_reports_every_loop_and_the_time_outside_them(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    env.pop("CXX", None)
    done = subprocess.run(
        [sys.executable, "benchmarks/rnn_phases.py", "--model", "lstm", "--mode", "train", "--batch", "3",
         "--seq", "20", "--calls", "1"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    lines = done.stdout.splitlines()
    # the counter's rate, measured twice (before and after the calls) against perf_counter
    rate = re.search(r"ticks at ([\d.]+) GHz, measured before and after the calls \(([\d.]+), ([\d.]+)\)", lines[0])
    assert rate is not None, lines[0]
    ghz, before, after = (float(v) for v in rate.groups())
    assert 0.5 < ghz < 10 and abs(before - after) < 0.02 * ghz and abs(ghz - (before + after) / 2) < 1e-3, lines[0]
    # the machine's first-touch rates, and the memory a call writes into fresh pages priced at the first
    touch = re.search(r"first touch: ([\d.]+) GB/s into fresh pages .* a call writes ([\d.]+) MB .*: >= ([\d.]+) s",
                      lines[1])
    assert touch is not None, lines[1]
    rate, megabytes, floor = (float(v) for v in touch.groups())
    assert rate > 0 and megabytes > 0 and floor == pytest.approx(megabytes / 1e3 / rate, rel=0.05, abs=2e-3)
    # 2 layers: their forward loops, then their backward loops, each with its phases and whole time
    loops = [line.split()[0] for line in lines if line.startswith("  ")]
    assert loops == ["forward", "forward", "backward", "backward"], done.stdout
    assert all("h GEMM" in line for line in lines if line.startswith("  forward")), done.stdout
    assert all("dW sums" in line for line in lines if line.startswith("  backward")), done.stdout
    call = [line for line in lines if line.startswith("call:")]
    assert len(call) == 1, done.stdout
    m = re.search(r"wall ([\d.]+) s.*loops ([\d.]+) s .*outside the loops (-?[\d.]+) s", call[0])
    assert m is not None, call[0]
    wall, loops_s, outside = (float(v) for v in m.groups())
    assert 0 < loops_s and abs(wall - loops_s - outside) < 2e-3, call[0]
    assert re.search(r"first-touch floor [\d.]+ s \(\d+% of the wall\)", call[0]), call[0]
    assert list(tmp_path.glob("levelbench-rnn-phases-native/kernels-timers/rnn_cpu-*.so")), \
        f"the timers' kernels were not built in their own cache under {tmp_path}"


@pytest.mark.slow
@pytest.mark.skipif(platform.machine() not in ("x86_64", "AMD64"), reason="the timers read the x86 time-stamp counter")
@pytest.mark.skipif(shutil.which("g++") is None, reason="no g++ to build the timers' kernels with")
def test_rnn_phases_takes_the_counters_rate_from_the_option_over_its_own(tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path))
    env.pop("CXX", None)
    done = subprocess.run(
        [sys.executable, "benchmarks/rnn_phases.py", "--model", "gru", "--mode", "forward", "--batch", "2",
         "--seq", "5", "--calls", "1", "--tsc-ghz", "1.5"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=900, check=False)
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-2000:]
    header = done.stdout.splitlines()[0]
    assert re.search(r"ticks at --tsc-ghz 1\.5 \(measured: [\d.]+, [\d.]+ GHz\)", header), header
