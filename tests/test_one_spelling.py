"""One spelling on every command: ``--format`` and ``-o/--output``; the old ``--json`` forms still work,
marked deprecated in ``--help`` and on stderr; one target syntax (``FILE.py:NAME`` and ``FILE.py::NAME``)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from conftest import levelbench_cli as lb
from test_store_fakes import record, result

from levelbench.store import open_store

SIMPLE = Path(__file__).parent / "workloads" / "simple.py"
PLAIN = "def forward(x):\n    return x\n"


@pytest.fixture
def db(tmp_path) -> str:
    path = str(tmp_path / "r.db")
    with open_store(path) as s:
        record(s, [result("matmul", {"numpy": ("numpy", 2e-3), "torch": ("torch", 1.9e-3)})])
        record(s, [result("matmul", {"numpy": ("numpy", 2e-3), "torch": ("torch", 1.8e-3)}, seed=1)])
    return path


@pytest.mark.parametrize("command", ["run", "measure", "explain", "history", "diff", "env", "export", "report"])
def test_every_command_that_shows_results_takes_format_and_output(command):
    r = lb(command, "--help")
    assert r.returncode == 0, r.stderr
    assert "--format [" in r.stdout and "-o, --output" in r.stdout


@pytest.mark.parametrize("command", ["run", "measure", "explain", "history", "diff", "env"])
def test_the_old_json_spelling_is_marked_deprecated_in_help(command):
    r = lb(command, "--help")
    assert "--json" in r.stdout and "(deprecated: use --format json" in r.stdout


@pytest.mark.parametrize("command", ["history", "diff", "env"])
def test_format_json_and_the_deprecated_json_flag_print_the_same_document(command, db, tmp_path):
    args = [command] + (["--db", db] if command != "env" else [])
    new = lb(*args, "--format", "json")
    old = lb(*args, "--json")
    assert new.returncode == old.returncode == 0, (new.stderr, old.stderr)
    assert new.stderr == ""
    assert old.stderr.strip() == f"levelbench {command}: --json is deprecated and will go; use --format json"
    strip = (lambda d: d) if command != "env" else (lambda d: {k: v for k, v in d.items()
                                                               if k not in ("load_average", "cpu_frequency")})
    assert strip(json.loads(new.stdout)) == strip(json.loads(old.stdout))
    out = tmp_path / f"{command}.json"
    to_file = lb(*args, "--format", "json", "-o", str(out))
    assert to_file.returncode == 0 and to_file.stdout == ""
    assert strip(json.loads(out.read_text())) == strip(json.loads(new.stdout))


@pytest.mark.parametrize("command", ["history", "diff"])
def test_text_to_a_file_is_the_table_without_colours(command, db, tmp_path):
    out = tmp_path / "out.txt"
    r = lb(command, "--db", db, "-o", str(out))
    assert r.returncode == 0 and r.stdout == ""
    text = out.read_text()
    assert "matmul" in text and "\x1b[" not in text


def test_json_and_a_different_format_or_two_destinations_are_usage_errors(db, tmp_path):
    r = lb("export", "--db", db, "--format", "xml")
    assert r.returncode == 2 and "'json'" in r.stderr and "'csv'" in r.stderr  # the accepted values, literally
    r = lb("run", "-w", "matmul", "--json", str(tmp_path / "a.json"), "-o", str(tmp_path / "b.json"))
    assert r.returncode == 2 and "two destinations" in r.stderr and "give one, e.g. --format json -o" in r.stderr
    r = lb("measure", "1", "--json", str(tmp_path / "a.json"), "--format", "text", "-o", str(tmp_path / "a.json"))
    assert r.returncode == 0  # the same file twice is one destination: JSON wins, as --json asked
    r = lb("history", "--db", db, "-o", str(tmp_path / "no" / "h.txt"))
    assert r.returncode == 2 and "does not exist" in r.stderr and len(r.stderr.strip().splitlines()) == 1


def test_export_formats_come_from_one_table_of_writers():
    from levelbench.store._export import WRITERS

    r = lb("export", "--help")
    for name, (_, what) in WRITERS.items():
        assert name in r.stdout and what.split()[0] in r.stdout


def test_measure_writes_json_or_text_to_output_and_shows_the_report(tmp_path):
    out = tmp_path / "m.json"
    r = lb("measure", "sum(range(50))", "--budget", "0.1", "--format", "json", "-o", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["format"] == "levelbench.measurement"
    assert "steady median" in r.stdout and r.stderr == ""
    r = lb("measure", "sum(range(50))", "--budget", "0.1", "--format", "json")
    assert json.loads(r.stdout)["format"] == "levelbench.measurement"  # JSON alone on stdout
    old = lb("measure", "sum(range(50))", "--budget", "0.1", "--json", "-")
    assert json.loads(old.stdout)["format"] == "levelbench.measurement"
    assert "--json - is deprecated" in old.stderr and "use --format json" in old.stderr
    txt = tmp_path / "m.txt"
    r = lb("measure", "sum(range(50))", "--budget", "0.1", "-o", str(txt))
    assert "steady median" in txt.read_text() and "\x1b[" not in txt.read_text()


def test_run_new_and_old_spellings(tmp_path):
    common = ["-w", f"{SIMPLE}::SLEEPY", "--budget", "0.1", "--no-diagnose", "--in-process", "--no-save"]
    r = lb("run", *common, "--format", "json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["format"] == "levelbench.run"  # stdout is the JSON alone; the table on stderr
    assert "ratio to base" in r.stderr
    out = tmp_path / "r.json"
    r = lb("run", *common, "--json", str(out))
    assert r.returncode == 0, r.stderr
    assert json.loads(out.read_text())["results"][0]["status"] == "ok"
    assert f"--json {out} is deprecated and will go; use --format json -o {out}" in r.stderr
    assert "ratio to base" in r.stdout
    txt = tmp_path / "r.txt"
    r = lb("run", *common, "-o", str(txt))
    assert r.returncode == 0, r.stderr
    assert "ratio to base" in txt.read_text() and "(-v: what was waited for)" in txt.read_text()  # brief
    r = lb("run", *common, "-o", str(txt), "-v")
    assert r.returncode == 0, r.stderr
    assert "timed in this process" in txt.read_text() and "(-v:" not in txt.read_text()  # in full


def test_explain_accepts_both_target_spellings_and_names_the_file_in_errors(tmp_path):
    (tmp_path / "model.py").write_text(PLAIN)
    for target in ("model.py:forward", "model.py::forward"):
        r = lb("explain", target, cwd=tmp_path)
        assert r.returncode == 2
        assert r.stderr.strip().startswith("levelbench explain: model.py gives no example arguments for forward")
    r = lb("explain", "model.py:forward", "--args", "NOPE", cwd=tmp_path)
    assert r.returncode == 2 and "levelbench explain: model.py has no attribute 'NOPE'" in r.stderr
    r = lb("explain", "model.py", cwd=tmp_path)
    assert "expected FILE.py::FUNCTION, got 'model.py' (FILE.py:FUNCTION and package.module:FUNCTION work too)" in r.stderr


def test_help_shows_both_target_spellings():
    def words(*args: str) -> str:
        return " ".join(lb(*args).stdout.split())

    assert "FILE.py:NAME (FILE.py::NAME and package.module:NAME work too)" in words("run", "--help")
    assert "The target is FILE.py:FUNCTION or FILE.py::FUNCTION" in words("explain", "--help")
    assert "FILE.py:NAME or FILE.py::NAME" in words("--help")
