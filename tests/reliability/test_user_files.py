"""A user's files are written whole or not at all, only where the user asked, and never over their results:
``doctor --fix`` on a full disk, a file edited while the doctor runs, unwritable files, links out of the
tree, Ctrl-C while writing; ``export -o``/``report --html`` given the results database; new files' modes."""

from __future__ import annotations

import ast
import os
import signal
import sqlite3
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from levelbench._values.files import FileChanged, Snapshot, replace_file
from levelbench.doctor import fix_paths, write_fixes

from _support import read_only, small_disk, wait_for, workload

from conftest import levelbench_argv, levelbench_cli

pytestmark = pytest.mark.reliability

FIXABLE = (
    "import time\nimport jax\nf = jax.jit(lambda x: x)\nx = jax.numpy.ones(3)\ny = f(x)\n"
    "t0 = time.time()\ny = f(x)\nt1 = time.time()\nprint(t1 - t0)\n"
)


def fixed_text(path: Path) -> str:
    (result,) = fix_paths([str(path)], config=False).results
    assert result.changed
    return result.text


# -- replace_file ------------------------------------------------------------------------------------

def test_replace_file_keeps_the_mode_and_gives_a_new_file_the_umask(tmp_path):
    old = tmp_path / "old.txt"
    old.write_text("before")
    old.chmod(0o750)
    replace_file(old, "after")
    assert old.read_text() == "after" and stat.S_IMODE(old.stat().st_mode) == 0o750
    mask = os.umask(0o027)
    try:
        replace_file(tmp_path / "new.txt", "x")
    finally:
        os.umask(mask)
    assert stat.S_IMODE((tmp_path / "new.txt").stat().st_mode) == 0o640
    assert sorted(p.name for p in tmp_path.iterdir()) == ["new.txt", "old.txt"]  # no temporary left


def test_replace_file_writes_through_a_link_and_keeps_the_link(tmp_path):
    (tmp_path / "real.txt").write_text("before")
    (tmp_path / "link.txt").symlink_to("real.txt")
    replace_file(tmp_path / "link.txt", "after")
    assert (tmp_path / "link.txt").is_symlink() and (tmp_path / "real.txt").read_text() == "after"


def test_replace_file_refuses_a_file_that_changed_since_it_was_read(tmp_path):
    path = tmp_path / "f.txt"
    path.write_text("read")
    seen = Snapshot.of(path)
    path.write_text("edited meanwhile")
    with pytest.raises(FileChanged):
        replace_file(path, "computed from 'read'", expect=seen.unchanged)
    assert path.read_text() == "edited meanwhile" and len(list(tmp_path.iterdir())) == 1


def test_a_full_disk_leaves_the_file_as_it_was(tmp_path):
    with small_disk(tmp_path / "disk", "64k") as disk:
        target = disk / "f.txt"
        target.write_text("original\n")
        with pytest.raises(OSError), open(disk / "filler", "wb", buffering=0) as filler:
            while True:
                filler.write(b"\0" * 4096)
        with pytest.raises(OSError):
            replace_file(target, "x" * 100_000)
        assert target.read_text() == "original\n"
        assert sorted(p.name for p in disk.iterdir()) == ["f.txt", "filler"]


# -- doctor --fix ------------------------------------------------------------------------------------

def test_fix_on_a_full_disk_leaves_the_script_whole_and_says_disk_full(tmp_path):
    """Defect 1: the script was cut off mid-statement (truncated, then written)."""
    with small_disk(tmp_path / "disk", "64k") as disk:
        script = disk / "full.py"
        script.write_text(FIXABLE + 'print("END")\n')
        with pytest.raises(OSError), open(disk / "filler", "wb", buffering=0) as filler:
            while True:
                filler.write(b"\0" * 4096)
        r = levelbench_cli("doctor", "--fix", "--no-config", str(script))
        assert script.read_text() == FIXABLE + 'print("END")\n'
        assert "disk full" in r.stderr and "Traceback" not in r.stderr and r.returncode == 1, r.stderr


def test_an_edit_made_while_fixing_is_kept_and_said(tmp_path):
    """Defect 2: the fix of the old text was written over the user's new line."""
    script = tmp_path / "small.py"
    script.write_text(FIXABLE)
    report = fix_paths([str(script)], config=False)
    with open(script, "a") as f:
        f.write('print("USER EDIT")\n')
    written = write_fixes(report.results, [str(script)])
    assert written.written == [] and "changed since" in written.skipped[0][1]
    assert script.read_text() == FIXABLE + 'print("USER EDIT")\n'


def test_unwritable_files_are_named_and_the_others_still_fixed(tmp_path):
    """Defect 21: a traceback from the first unwritable file, nothing after it written, no summary."""
    tree = tmp_path / "tree"
    (tree / "ro").mkdir(parents=True)
    (tree / "ro" / "a.py").write_text(FIXABLE)
    (tree / "b.py").write_text(FIXABLE)
    with read_only(tree / "ro"):
        r = levelbench_cli("doctor", "--fix", "--no-config", str(tree))
        assert (tree / "ro" / "a.py").read_text() == FIXABLE
    assert (tree / "b.py").read_text() != FIXABLE
    assert "Traceback" not in r.stderr and "ro/a.py: cannot be written" in r.stderr, r.stderr
    assert "Fixed" in r.stderr and r.returncode == 1


def test_fix_does_not_follow_a_link_out_of_the_tree(tmp_path):
    """Defect 31: ``bench.py -> /elsewhere/victim.py`` in a cloned repository had its target rewritten."""
    (tmp_path / "outside").mkdir()
    victim = tmp_path / "outside" / "victim.py"
    victim.write_text(FIXABLE)
    tree = tmp_path / "tree"
    tree.mkdir()
    (tree / "own.py").write_text(FIXABLE)
    (tree / "bench.py").symlink_to(victim)
    (tree / "alias.py").symlink_to("own.py")  # a link inside the tree: the file is fixed once
    r = levelbench_cli("doctor", "--fix", "--no-config", str(tree))
    assert victim.read_text() == FIXABLE
    assert (tree / "own.py").read_text() == fixed_text(victim)
    assert (tree / "alias.py").is_symlink() and (tree / "bench.py").is_symlink()
    assert "bench.py: not written: a symbolic link to" in r.stderr and "outside" in r.stderr, r.stderr
    # counted as what happened: one file fixed (own.py, also reached as alias.py), one not written
    assert "in 1 file (1 file not written, as said above)" in r.stderr and r.returncode == 1, r.stderr
    assert "bench.py" in r.stdout  # its findings are still there, and reported
    # named on the command line, the link is the user's choice: its target is fixed
    levelbench_cli("doctor", "--fix", "--no-config", str(tree / "bench.py"))
    assert victim.read_text() != FIXABLE and (tree / "bench.py").is_symlink()


def test_ctrl_c_while_writing_fixes_says_what_was_written_and_exits_130(tmp_path):
    """Defect 25: click's 'Aborted!' and exit 1 (the findings status), with no word of what was written.
    The signal is sent once the first file has been replaced; every file is whole, fixed or as it was."""
    tree = tmp_path / "tree"
    tree.mkdir()
    for i in range(300):
        (tree / f"f{i:03d}.py").write_text(FIXABLE)
    first = tree / "f000.py"
    before = first.stat().st_mtime_ns
    p = subprocess.Popen(levelbench_argv("doctor", "--fix", "--no-config", "-j", "1", str(tree)),
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        wait_for(lambda: first.stat().st_mtime_ns != before or p.poll() is not None, timeout=240, every=0.005)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=60)
    finally:
        p.kill()
    if p.returncode == 0:
        pytest.skip("every file was written before the signal landed")
    assert p.returncode == 130 and "interrupted (Ctrl-C) while writing fixes" in err and "Aborted" not in err, err
    fixed = fixed_text(tree / "f299.py") if (tree / "f299.py").read_text() == FIXABLE else None
    states = [(tree / f"f{i:03d}.py").read_text() for i in range(300)]
    assert all(s == FIXABLE or s == (fixed or s) for s in states)
    written = sum(s != FIXABLE for s in states)
    assert f"{written} file(s) written whole" in err, err


# -- no command writes over the results database ---------------------------------------------------

@pytest.fixture(scope="module")
def db(tmp_path_factory):
    db = tmp_path_factory.mktemp("store") / "v.db"
    r = levelbench_cli("run", "-w", workload("QUICK"), "--budget", "0.1", "--no-diagnose", "--in-process",
                       "--db", str(db))
    assert r.returncode == 0, r.stderr
    return db


@pytest.mark.parametrize("command", [("export", "1", "-o"), ("report", "1", "--html"), ("report", "1", "-o")])
def test_export_and_report_refuse_to_write_over_the_database(db, command):
    """Defect 3: ``export 1 -o v.db --db v.db`` replaced the store with JSON, every run lost."""
    before = db.read_bytes()
    verb, run, option = command
    r = levelbench_cli(verb, run, option, str(db), "--db", str(db))
    assert r.returncode == 2 and "is an SQLite database" in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert db.read_bytes() == before
    with sqlite3.connect(db) as c:
        assert c.execute("select count(*) from runs").fetchone()[0] == 1


def test_exported_files_get_the_umask_mode(tmp_path, db):
    """Defect 37: files written through ``-o`` were 0600 (mkstemp's mode)."""
    out = tmp_path / "e.json"
    code = f"import os, runpy, sys; os.umask(0o022); sys.argv = ['levelbench', 'export', '1', '-o', {str(out)!r}, '--db', {str(db)!r}]; runpy.run_module('levelbench', run_name='__main__')"
    r = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    assert stat.S_IMODE(out.stat().st_mode) == 0o644


# (file, enclosing function): why writing there without replace_file is right
WRITES_ALLOWED = {
    ("levelbench/_values/files.py", "replace_file"): "the temporary file that replace_file renames into place",
    ("levelbench/_cli/common.py", "write_output"): "a device or a pipe (/dev/stdout, a FIFO): cannot be replaced",
    ("levelbench/pytest_plugin/session.py", "_write_json"): "a device or a pipe, as write_output",
    ("levelbench/_cli/run.py", "format_epilog"): "click's help formatter's write_text: not a file",
    ("levelbench/_probing/compile_cache.py", "two_processes"):
        "a generated program in a TemporaryDirectory of levelbench's own, never a user's file",
    ("levelbench/_probing/xla_options.py", "write_program"):
        "exported programs in a TemporaryDirectory of levelbench's own, never a user's file",
    ("levelbench/_auditing/_isolated.py", "_ship"):
        "what an isolated worker of doctor --run reads, in the audit's temporary folder, never a user's file",
    ("levelbench/_measuring/peak.py", "_measuring_alone"):
        "the empty lock file in levelbench's own cache folder that one peak measurement holds at a time",
}


def _writes(tree: ast.AST) -> list[tuple[str, int]]:
    """(enclosing function, line) of each call that opens a file for writing or writes one whole."""
    found = []

    def visit(node: ast.AST, function: str) -> None:
        for child in ast.iter_child_nodes(node):
            name = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else function
            if isinstance(child, ast.Call):
                callee = ast.unparse(child.func)
                mode = child.args[1] if len(child.args) > 1 else next(
                    (k.value for k in child.keywords if k.arg == "mode"), None)
                writes_mode = isinstance(mode, ast.Constant) and isinstance(mode.value, str) and any(
                    c in mode.value for c in "wax+")
                if (callee in ("open", "io.open", "os.fdopen") and writes_mode) or callee.endswith(
                        (".write_text", ".write_bytes")):
                    found.append((function, child.lineno))
            visit(child, name)

    visit(tree, "<module>")
    return found


def test_no_write_path_opens_a_user_file_with_w_directly():
    """Every user-visible file goes through replace_file; each exception in WRITES_ALLOWED says why."""
    root = Path(__file__).parents[2]
    found = []
    for path in sorted((root / "levelbench").rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        for function, line in _writes(ast.parse(path.read_text())):
            if (rel, function) not in WRITES_ALLOWED:
                found.append(f"{rel}:{line} in {function}()")
    assert found == [], "write through levelbench._values.files.replace_file instead:\n" + "\n".join(found)
    # the test sees what it should: the allowed writes are really there
    seen = {(path.relative_to(root).as_posix(), f) for path in (root / "levelbench").rglob("*.py")
            for f, _ in _writes(ast.parse(path.read_text()))}
    assert set(WRITES_ALLOWED) <= seen, set(WRITES_ALLOWED) - seen
