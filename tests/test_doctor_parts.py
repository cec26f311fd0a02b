"""A long script's parts shared among processes (`levelbench.doctor._parts`): the same findings, fixes and order
as one process gives, whatever a worker does; and the text renderer's fast path prints what rich prints."""

from __future__ import annotations

import io
import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from levelbench._values.findings import Severity
from levelbench.doctor import _fixer, _parts, _schedule, fix_paths, lint_paths, lint_source
from levelbench.doctor._diagnostic import Diagnostic, DoctorReport, Location
from levelbench._rendering import doctor_text
from levelbench._rendering.terminal import SEVERITY_STYLE


def _long_script() -> str:
    """About 1,800 lines: timed blocks with fixes, definitions, and strings the part splitter misreads: a
    ``"'''"`` literal before a triple-quoted string whose lines look like top-level statements, so that it
    cuts inside the string (the first one inside the head): that part does not parse and is joined with the
    next."""
    trap = "marker = \"'''\"\ndoc = '''\n" + "x = 1\n" * 150 + "'''\nmarker = \"'''\"\n"
    blocks = []
    for k in range(150):
        if k % 40 == 0:
            blocks.append(trap)
        blocks.append(f"t0 = time.time()\ny_{k} = f(x)\nprint(time.time() - t0)\nfor i in range(3):\n"
                      f"    z = jnp.dot(x, x)\n")
        if k % 50 == 3:
            blocks.append(f"@jax.jit\ndef g{k}(v):\n    return v + {k}\n\n\nt1 = time.perf_counter()\ng{k}(x)\n"
                          "print(time.perf_counter() - t1)\n")
    header = "import time\nimport jax\nimport jax.numpy as jnp\n\n\n@jax.jit\ndef f(x):\n    return x * 2\n\n\n"
    return header + "x = jnp.ones((10, 10))\n" + "".join(blocks)


def _everything(diagnostics: tuple[Diagnostic, ...]) -> list[tuple]:
    return [(d.to_dict(), d.fix, d.in_file) for d in diagnostics]


@pytest.fixture
def small_parts(monkeypatch):
    monkeypatch.setattr(_schedule, "PART_LINES", 300)
    monkeypatch.setattr(_schedule, "MIN_PART_LINES", 200)
    monkeypatch.setattr(_schedule, "HEAD_LINES", 40)


def test_parts_checked_by_workers_give_what_one_process_gives(small_parts):
    text = _long_script()
    one = lint_source(text, "long.py", jobs=1)
    three = lint_source(text, "long.py", jobs=3)
    assert len(one) > 400 and sum(d.fix is not None for d in one) > 300
    assert _everything(three) == _everything(one)


@pytest.fixture
def parts_seen(monkeypatch) -> tuple[list[tuple[int, int]], list[tuple[int, int]]]:
    """(the parts planned, the parts checked in this process), filled as the doctor runs."""
    planned: list[tuple[int, int]] = []
    here: list[tuple[int, int]] = []
    map_parts = _schedule.map_parts
    monkeypatch.setattr(_schedule, "map_parts", lambda task, shared, items, jobs: planned.extend(items)
                        or map_parts(task, shared, items, jobs))
    text_of = _schedule._Parts.text  # asked once per part checked in this process (the workers have their own)
    monkeypatch.setattr(_schedule._Parts, "text", lambda script, first, last, margins=True: (
        margins and here.append((first, last))) or text_of(script, first, last, margins=margins))
    return planned, here


def test_a_part_split_inside_a_string_is_joined_with_the_next_in_a_worker_too(small_parts, parts_seen, monkeypatch):
    monkeypatch.setattr(_schedule, "PART_LINES", 50)  # parts of 50-100 lines: some cut inside a 150-line string
    monkeypatch.setattr(_schedule, "MIN_PART_LINES", 50)
    text = _long_script()
    planned, here = parts_seen
    two = lint_source(text, "long.py", jobs=2)
    # The parts checked here that were not planned are the joins of a part that did not parse with the next one,
    # the worker's parts included.
    joins = [part for part in here if part not in planned]
    assert len(joins) >= 2 and any(first >= planned[len(planned) // 2][0] for first, _ in joins), (planned, joins)
    assert "LB100" not in {d.code for d in two}
    assert _everything(two) == _everything(lint_source(text, "long.py", jobs=1))


def test_the_workers_check_their_share_even_beside_another_levelbench(small_parts, parts_seen, monkeypatch, tmp_path):
    shadow = tmp_path / "levelbench"  # what a worker would import first if the working directory led sys.path
    shadow.mkdir()
    (shadow / "__init__.py").write_text("raise SystemExit(9)\n")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(_schedule, "PART_LINES", 100)
    monkeypatch.setattr(_schedule, "MIN_PART_LINES", 100)
    planned, here = parts_seen
    text = _long_script()
    three = lint_source(text, "long.py", jobs=3)
    assert len(planned) >= 6
    # Of the planned parts, this process checked its share only: the workers delivered theirs (the rest checked
    # here are joins of a part cut inside a string with the next).
    assert [part for part in here if part in planned] == planned[: round(len(planned) / 3)]
    assert _everything(three) == _everything(lint_source(text, "long.py", jobs=1))


def test_a_worker_that_fails_costs_time_not_findings(small_parts, monkeypatch, tmp_path):
    fails = tmp_path / "python"
    fails.write_text("#!/bin/sh\nexit 3\n")
    fails.chmod(0o755)
    monkeypatch.setattr(sys, "executable", str(fails))
    text = _long_script()
    assert _everything(lint_source(text, "long.py", jobs=2)) == _everything(lint_source(text, "long.py", jobs=1))


def test_a_worker_that_cannot_start_costs_time_not_findings(small_parts, monkeypatch, tmp_path):
    monkeypatch.setattr(sys, "executable", str(tmp_path / "no-such-python"))
    text = _long_script()
    assert _everything(lint_source(text, "long.py", jobs=2)) == _everything(lint_source(text, "long.py", jobs=1))


def test_map_parts_keeps_the_items_order_across_processes():
    assert _parts.map_parts(_parts_task, 10, list(range(7)), processes=3) == [10 * i for i in range(7)]


def _parts_task(factor: int, item: int) -> int:
    return factor * item


def test_shares_are_runs_or_weighed():
    assert _parts._shares(10, 2, None) == [list(range(5)), list(range(5, 10))]  # the parts of a script: runs
    assert _parts._shares(5, 2, [1, 1, 1, 1, 100]) == [[4], [0, 1, 2, 3]]  # the big file alone
    assert _parts._shares(5, 2, [100, 1, 1, 1, 1]) == [[0], [1, 2, 3, 4]]
    assert _parts._shares(5, 3, [1, 1, 1, 1, 100]) == [[4], [0, 2], [1, 3]]  # every share gets an item
    assert _parts._shares(6, 2, [3, 3, 2, 2, 1, 1]) == [[0, 2, 4], [1, 3, 5]]  # alike neighbours spread out
    assert _parts._shares(4, 2, [0, 0, 0, 0]) == [[0, 2], [1, 3]]  # no weight: by count
    assert _parts.map_parts(_parts_task, 2, list(range(6)), 2, weights=[5, 1, 1, 1, 1, 1]) == [0, 2, 4, 6, 8, 10]


def _tree(folder: Path) -> None:
    """9 timing scripts of growing length, a notebook, an unreadable file, and a folder whose configuration
    ignores a rule: 12 inputs, 11 readable."""
    header = "import time\nimport jax\nimport jax.numpy as jnp\n\nx = jnp.ones((10, 10))\n"
    block = "t0 = time.time()\ny = jnp.dot(x, x)\nprint(time.time() - t0)\n"
    for k in range(9):
        (folder / f"bench_{k}.py").write_text(header + block * (10 * k + 1))
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": None,
            "source": ["import time\n", "import numpy as np\n", "t0 = time.time()\n", "np.ones(3)\n",
                       "print(time.time() - t0)\n"]}
    notebook = {"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    (folder / "notes.ipynb").write_text(json.dumps(notebook))
    (folder / "broken.py").write_bytes(b"\x00\xff binary")
    (folder / "sub").mkdir()
    (folder / "sub" / "pyproject.toml").write_text('[tool.levelbench.doctor]\nignore = ["LB105"]\n')
    (folder / "sub" / "timed.py").write_text(header + block * 20)


@pytest.fixture(params=["large", "slow"])
def small_batches(request, monkeypatch):
    """Every batch shared among the processes, as a large one is (from the start) or as a small one that takes
    long is (after a while: here at once); the tree of `_tree` is read in three batches."""
    if request.param == "large":
        monkeypatch.setattr(_schedule, "SHARED_BYTES", 1)
        monkeypatch.setattr(_schedule, "SHARE_AFTER_SECONDS", 1e9)
    else:
        monkeypatch.setattr(_schedule, "SHARED_BYTES", 10**9)
        monkeypatch.setattr(_schedule, "SHARE_AFTER_SECONDS", 0.0)
    monkeypatch.setattr(_schedule, "BATCH_BYTES", 9000)


def test_a_directory_checked_by_workers_gives_what_one_process_gives(small_batches, monkeypatch, tmp_path):
    # In batches, each shared among the processes, in the order the files are read.
    _tree(tmp_path)
    checked_here: list[str] = []
    diagnose = _schedule.diagnose  # what this process checks itself (a worker has its own, not spied on)
    monkeypatch.setattr(_schedule, "diagnose", lambda source, *a, **k: checked_here.append(source.path)
                        or diagnose(source, *a, **k))

    one = lint_paths([tmp_path], jobs=1, config=True)
    assert len(checked_here) == 11 and len(one.files) == 12
    checked_here.clear()
    two = lint_paths([tmp_path], jobs=2, config=True)
    assert 0 < len(checked_here) < 11  # the workers checked the rest
    assert two.files == one.files and _everything(two.diagnostics) == _everything(one.diagnostics)
    codes = {(Path(d.location.path).name, d.code) for d in one.diagnostics}
    assert ("broken.py", "LB100") in codes and ("notes.ipynb", "LB105") in codes
    assert ("bench_8.py", "LB105") in codes and ("timed.py", "LB102") in codes and ("timed.py", "LB105") not in codes


def test_a_directory_fixed_by_workers_gives_what_one_process_gives(small_batches, monkeypatch, tmp_path):
    _tree(tmp_path)
    fixed_here: list[str] = []
    fix = _fixer._fix
    monkeypatch.setattr(_fixer, "_fix", lambda source, *a: fixed_here.append(source.path) or fix(source, *a))

    one = fix_paths([tmp_path], jobs=1, config=True, unsafe=True)
    assert len(fixed_here) == 11
    fixed_here.clear()
    two = fix_paths([tmp_path], jobs=2, config=True, unsafe=True)
    assert 0 < len(fixed_here) < 11
    assert sum(r.changed for r in one.results) >= 10 and sum(len(r.skipped) for r in one.results) == 0
    for a, b in zip(one.results, two.results, strict=True):
        assert (a.path, a.original, a.text, a.skipped, a.notebook) == (b.path, b.original, b.text, b.skipped, b.notebook)
        assert _everything(a.before) == _everything(b.before) and _everything(a.after) == _everything(b.after)
    assert two.unreadable == one.unreadable and two.remaining.files == one.remaining.files


def test_without_edits_the_findings_are_the_same_and_no_fix_is_built(small_parts, monkeypatch):
    from levelbench.doctor.rules import lb105_wall_clock

    text = _long_script()
    built: list[int] = []
    steady_clock = lb105_wall_clock.steady_clock
    monkeypatch.setattr(lb105_wall_clock, "steady_clock", lambda *a: built.append(1) or steady_clock(*a))
    bare = lint_source(text, "long.py", jobs=1, edits=False)
    assert not built and all(d.fix is None for d in bare)
    full = lint_source(text, "long.py", jobs=1)
    assert built and any(d.fix is not None for d in full)
    assert [d.to_dict() for d in bare] == [d.to_dict() for d in full]


def test_jobs_must_be_a_positive_number():
    with pytest.raises(ValueError, match=r"lint_paths: jobs must be a number of processes >= 1 \(or None\), got 0"):
        lint_paths(["x.py"], jobs=0)
    with pytest.raises(TypeError, match="lint_source: jobs must be .* got '2' \\(str\\); pass the number itself"):
        lint_source("x = 1\n", jobs="2")


def test_packing_a_diagnostic_keeps_all_of_it():
    text = "import time\nt0 = time.time()\nprint(time.time() - t0)\n"
    cell = {"cell_type": "code", "metadata": {}, "outputs": [], "source": "import numpy as np\n" + text.replace(
        "print(", "np.ones(3)\nprint(")}
    notebook = json.dumps({"cells": [cell], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)
    found = lint_source(text, "t.py") + lint_source("def broken(:\n", "b.py") + lint_source(notebook, "n.ipynb")
    assert any(d.in_file is not None for d in found)
    for diagnostic in found:
        back = Diagnostic.unpacked(diagnostic.location.path, diagnostic.packed())
        assert (back, back.fix, back.finding.data, back.in_file) == (
            diagnostic, diagnostic.fix, diagnostic.finding.data, diagnostic.in_file)


# --- the text renderer writes strings, not one rich print per line -----------------------------------
@pytest.mark.parametrize("color", [True, False])
@pytest.mark.parametrize("show_fixes", [True, False])
def test_text_output_is_what_rich_prints_for_the_same_lines(color, show_fixes):
    from rich.console import Console

    text = ("import time\nimport jax\nimport jax.numpy as jnp\n\n@jax.jit\ndef f(x):\n\treturn x * 2\n\n"
            "x = jnp.ones(3)\nt0 = time.time()\x0c\ny = f(x)  # caf\u00e9\tend\nprint(time.time() - t0)\n")
    diagnostics = list(lint_source(text, "t.py"))
    assert len(diagnostics) >= 2
    diagnostics.append(_made_up("t.py", "tab\there, bell\x07 and a [bold]markup[/bold] look-alike", "\tx = 1\x0c\n"))
    report = DoctorReport(tuple(diagnostics), ("t.py",))
    fast = io.StringIO()
    doctor_text.render_text(report, fast, io.StringIO(), show_fixes=show_fixes, color=color)

    slow = io.StringIO()
    console = Console(file=slow, force_terminal=color, no_color=not color, width=200, highlight=False,
                      soft_wrap=True, emoji=False, markup=False)
    for d in report.diagnostics:
        lines = [doctor_text._headline_pieces(d), *doctor_text._excerpt_pieces(d)]
        lines += doctor_text._fix_pieces(d) if show_fixes else []
        for pieces in lines:
            console.print(doctor_text._as_text(pieces))
    console.print(doctor_text._summary(report))
    assert fast.getvalue() == slow.getvalue()
    assert ("\x1b[" in fast.getvalue()) is color


def _made_up(path: str, message: str, source: str) -> Diagnostic:
    from levelbench._values.findings import Finding

    where = Location(path, 0, 9, 2, 9, 3)
    finding = Finding("LB105", message, Severity.WARNING, fix="use time.perf_counter()\n\tthen wait")
    return Diagnostic(where, finding, "wall-clock-interval", source)


def test_severity_styles_are_the_ones_shown():
    assert set(SEVERITY_STYLE) == set(Severity)


def test_a_clock_pair_cut_by_a_part_edge_is_seen_whole(monkeypatch):
    from test_doctor_bounds import _scaling

    text = _scaling().generate("timers", lines=3000)  # `t0 = time.time()` / `y = f(x)` / `print(...)` blocks
    monkeypatch.setattr(_schedule, "PART_LINES", 10**9)
    whole = [(d.code, d.location) for d in lint_source(text, "t.py")]
    monkeypatch.setattr(_schedule, "PART_LINES", 302)  # parts of 604 lines: cut between `y = f(x)` and `print(...)`
    monkeypatch.setattr(_schedule, "MIN_PART_LINES", 200)
    monkeypatch.setattr(_schedule, "HEAD_LINES", 40)
    parted = [(d.code, d.location) for d in lint_source(text, "t.py", jobs=2)]
    assert len(whole) > 2000 and parted == whole
    monkeypatch.setattr(_schedule, "MARGIN_LINES", 0)  # without margins a pair cut by an edge loses its findings
    assert [(d.code, d.location) for d in lint_source(text, "t.py", jobs=2)] != whole


@pytest.mark.parametrize("signum", [signal.SIGINT, signal.SIGTERM])
def test_a_signal_while_workers_check_a_long_script_stops_them_and_exits_130(tmp_path, signum):
    from test_doctor_bounds import _scaling
    from conftest import levelbench_argv

    script = tmp_path / "long.py"
    script.write_text(_scaling().generate("timers", lines=150_000))  # ~20 s of work: stopped well before the end
    process = subprocess.Popen(levelbench_argv("doctor", str(script)), stdout=subprocess.PIPE,
                               stderr=subprocess.PIPE, text=True)
    workers = _children_when_started(process.pid)
    process.send_signal(signum)
    out, err = process.communicate(timeout=60)
    assert process.returncode == 130, err
    assert "interrupted" in err and "Traceback" not in err and out == ""
    said = "Ctrl-C" if signum == signal.SIGINT else signum.name
    assert f"interrupted ({said}) before" in err, err  # was "interrupted () before": the signal unnamed
    time.sleep(0.5)
    assert not [pid for pid in workers if Path(f"/proc/{pid}").exists() and _alive(pid)], "a worker outlived the command"


def _children_when_started(pid: int, timeout: float = 30) -> list[int]:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        children = Path(f"/proc/{pid}/task/{pid}/children")
        found = [int(c) for c in children.read_text().split()] if children.exists() else []
        if found:
            return found
        time.sleep(0.05)
    pytest.fail("levelbench doctor started no worker for a 150,000-line script")


def _alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


# --- a part's text, written from line offsets, is the lines it stands for ------------------------------
@pytest.mark.parametrize("seed", range(5))
def test_a_parts_text_is_its_lines_with_the_others_blank_but_the_head_and_earlier_imports(seed):
    import random

    from levelbench.doctor._program import split_lines

    rng = random.Random(seed)
    shapes = ["import os", "x = 1", "", "from a import b", "  y = 2", "def f():", "import\tsys", "from (x)",
              "importx = 2", "import", "a = 3\r", "b = 4\r\nc = 5"]
    for _ in range(200):
        text = "\n".join(rng.choice(shapes) for _ in range(rng.randint(5, 80))) + rng.choice(["", "\n", "\r\n"])
        lines = split_lines(text)
        if len(lines) < 4:
            continue
        script = _schedule._Parts(_schedule.SourceText("x.py", text, False), frozenset(), False)
        script.head = rng.randint(1, len(lines) - 2)
        script.cuts = sorted(rng.sample(range(script.head, len(lines)), min(rng.randint(0, 4), len(lines) - script.head)))
        first = rng.randint(script.head + 1, len(lines) - 1)
        last = rng.randint(first + 1, len(lines))
        # what the text stands for: the head, then each import line before the part, then the part's lines
        shown = lines[: script.head] + [""] * (last - script.head)
        for k in range(script.head, first):
            if (lines[k].startswith(("import ", "from ", "import\t", "from\t"))) and "(" not in lines[k]:
                shown[k] = lines[k]
        shown[first:last] = lines[first:last]
        assert script.text(first, last, margins=False) == "\n".join(shown)
        assert script.text(script.head, last, margins=False) == "\n".join(lines[:last])


def test_unparse_writes_what_ast_unparse_writes():
    import ast

    from levelbench.doctor._syntax import unparse

    source = Path(_schedule.__file__).read_text() + Path(__file__).read_text() + (
        "f(x, 3, key=k, n=10)\nrange(10)\nf(-1)\nf(1.5)\nf(True)\nf(*a)\nf(**k)\nf(x=1, **k)\ng(0x1F)\nh(10**30)\n"
    )
    calls = [n for n in ast.walk(ast.parse(source)) if isinstance(n, (ast.Call, ast.Name, ast.Attribute))]
    assert len(calls) > 1000
    assert [unparse(n) for n in calls] == [ast.unparse(n) for n in calls]
