"""The doctor's bounds: what it reads (regular files, at most --max-bytes), how its work grows with a file's
length (linearly), and how much of a long line it prints."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from levelbench.doctor import _schedule, lint_paths, lint_source
from levelbench.doctor._diagnostic import DoctorReport

ROOT = Path(__file__).resolve().parent.parent
NOT_REGULAR = "not a regular file but"


def doctor(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    """``python -m levelbench doctor ARGS``; a hang fails the test (TimeoutExpired) instead of stalling it."""
    return subprocess.run([sys.executable, "-m", "levelbench", "doctor", *args], capture_output=True, text=True,
                          input=stdin, cwd=ROOT, timeout=60)


def _scaling():
    spec = importlib.util.spec_from_file_location("doctor_scaling", ROOT / "benchmarks" / "doctor_scaling.py")
    module = importlib.util.module_from_spec(spec)  # type: ignore[arg-type]
    spec.loader.exec_module(module)  # type: ignore[union-attr]
    return module


def lb100(report: DoctorReport) -> dict[str, str]:
    return {Path(d.location.path).name: d.message for d in report.diagnostics if d.code == "LB100"}


# --- item 7: only regular files, never a hang ---------------------------------------------------------
def test_a_fifo_is_refused_not_waited_on(tmp_path):
    fifo = tmp_path / "pipe.py"
    os.mkfifo(fifo)  # nobody ever writes to it: opening it for reading the ordinary way blocks forever
    (tmp_path / "good.py").write_text("import numpy as np\nx = np.random.normal((3, 3))\n")
    done = doctor("--format", "concise", str(tmp_path), str(fifo))
    assert done.returncode == 1, done.stderr
    assert "Traceback" not in done.stderr
    lines = [line for line in done.stderr.splitlines() if "LB100" in line]
    assert len(lines) == 2 and all(f"{NOT_REGULAR} a named pipe (FIFO)" in line for line in lines), done.stderr
    assert "good.py:2:22: LB109" in done.stdout  # the other file is still checked


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/urandom"])
def test_an_endless_device_is_refused_not_read(device, tmp_path):
    if not os.path.exists(device):
        pytest.skip(f"no {device} here")
    link = tmp_path / "looks_like_code.py"
    link.symlink_to(device)  # found by a directory walk too
    done = doctor(device, str(tmp_path))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert done.stderr.count(f"{NOT_REGULAR} a character device") == 2, done.stderr


def test_size_is_checked_before_reading(tmp_path):
    sparse = tmp_path / "sparse.py"
    with open(sparse, "wb") as f:
        f.truncate(50 * 1024 * 1024 * 1024)  # 50 GiB, no blocks on disk: reading it would take minutes
    assert lb100(lint_paths([sparse])) == {
        "sparse.py": "file is 51200.0 MB, over the 10.0 MB limit (raise it with --max-bytes)"
    }


def test_max_bytes_applies_to_files_in_directories_notebooks_and_standard_input(tmp_path):
    big = "x = 1\n" * 100
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "big.py").write_text(big)
    cell = {"cell_type": "code", "metadata": {}, "source": big, "outputs": [], "execution_count": None}
    (tmp_path / "big.ipynb").write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [cell]}))
    (tmp_path / "small.py").write_text("x = 1\n")
    reasons = lb100(lint_paths([tmp_path], max_bytes=500))
    assert set(reasons) == {"big.py", "big.ipynb"}
    assert all("over the 500 bytes limit (raise it with --max-bytes)" in r for r in reasons.values())
    done = doctor("--max-bytes", "500", "-", stdin=big)
    assert done.returncode == 1 and "standard input is over the 500 bytes limit" in done.stderr


def test_a_huge_max_bytes_is_a_limit_not_an_allocation(tmp_path):
    script = tmp_path / "small.py"
    script.write_text("x = 1\n")
    for args, stdin in (((str(script),), None), (("-",), "x = 1\n")):
        done = doctor("--max-bytes", str(1 << 40), *args, stdin=stdin)  # read(2**40) allocated 1 TiB: MemoryError
        assert (done.returncode, done.stdout.strip()) == (0, "No findings in 1 file."), done.stderr


# --- item 11: linear in the file's length -------------------------------------------------------------
def _python_calls(source: str, path: str) -> int:
    """Python function calls (and returns) made by the doctor on ``source``: a deterministic measure of work."""
    count = 0

    def profile(frame, event, arg):  # type: ignore[no-untyped-def]
        nonlocal count
        count += 1

    sys.setprofile(profile)
    try:
        lint_source(source, path)
    finally:
        sys.setprofile(None)
    return count


@pytest.mark.parametrize("shape", ["timers", "functions", "unread", "magics", "cells"])
def test_work_grows_linearly_with_the_number_of_timed_regions(shape):
    # Each shape used to make some step quadratic: 4x the lines cost 15x the calls (timers: 1000 lines
    # made 75 M calls, 26 s). Linear is 4x; the bound leaves room for the fixed costs' share shrinking.
    scaling = _scaling()
    path = "bench.ipy" if shape in ("magics", "cells") else "bench.py"
    small = _python_calls(scaling.generate(shape, lines=250), path)
    large = _python_calls(scaling.generate(shape, lines=1000), path)
    assert large < 6 * small, f"{shape}: 250 lines made {small} calls, 1000 lines {large} ({large / small:.1f}x)"


def test_the_scaling_benchmark_shows_where_a_parts_time_goes(capsys):
    # benchmarks/doctor_scaling.py --phases: each step of checking one part, and the budget per line
    _scaling().phases("timers", lines=300, repeats=1)
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("timers: 30") and " findings, " in out[0] and "us per line" in out[0]
    steps = [re.split(r"\s{2,}", line.strip())[0] for line in out[1:5]]
    assert steps == ["program (parse, index, lines)", "of which ast.parse", "of which the tree index",
                     "context (names, facts, kinds, regions)"]
    assert any(line.strip().startswith("rule LB102") for line in out)
    assert "10 s for 10 MB of this shape on" in out[-1] and "us of CPU per line" in out[-1]


# --- item 18: a long line is printed around the column, not whole -------------------------------------
def test_text_output_cuts_a_minified_line_around_the_finding(tmp_path):
    filler = ";".join(f"a{i} = {i}" for i in range(12000))  # ~130 kB on one line
    script = tmp_path / "bundle.py"
    script.write_text(f"import numpy as np;{filler};x = np.random.normal((3, 3));{filler}\n")
    done = doctor("--no-color", str(script))
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert len(done.stdout) < 1500, f"{len(done.stdout)} characters printed"
    headline, source, caret = done.stdout.splitlines()[:3]
    assert ": LB109 shape `(3, 3)` is passed as `loc`" in headline
    assert source.startswith("    1 | ...") and source.endswith("...")
    column = caret.index("^")
    assert source[column:column + 6] == "(3, 3)" and caret.count("^") == 6


def test_text_output_of_a_short_line_is_unchanged(tmp_path):
    script = tmp_path / "short.py"
    script.write_text("import numpy as np\nx = np.random.normal((3, 3))\n")
    lines = doctor("--no-color", str(script)).stdout.splitlines()
    assert lines[1:3] == ["    2 | x = np.random.normal((3, 3))", "      |                      ^^^^^^"]


def test_a_long_script_checked_in_parts_finds_what_the_whole_file_shows(monkeypatch):
    scaling = _scaling()
    text = scaling.generate("plain", lines=2000) + 'doc = """\nx = 1\nimport nothing\n"""\n' * 40 + (
        "".join(f"@jax.jit\ndef g{k}(v):\n    return v + 1\n\n\nt0 = time.time()\ng{k}(x)\nprint(time.time() - t0)\n"
                for k in range(60))
    )  # each block self-contained: a definition in one part used in a later one is the documented limit
    monkeypatch.setattr(_schedule, "PART_LINES", 10**9)
    whole = lint_source(text, "long.py")
    monkeypatch.setattr(_schedule, "PART_LINES", 300)
    monkeypatch.setattr(_schedule, "HEAD_LINES", 40)
    trees: list[int] = []
    diagnose_now = _schedule.diagnose_now
    monkeypatch.setattr(_schedule, "diagnose_now", lambda *args: trees.append(1) or diagnose_now(*args))
    parted = lint_source(text, "long.py", jobs=1)  # counted here: every part in this process
    assert len(trees) >= 8  # one syntax tree per part at a time: memory bounded by a part, not the file
    assert len(whole) > 100 and "LB100" not in {d.code for d in whole}
    assert [(d.code, d.location) for d in parted] == [(d.code, d.location) for d in whole]
