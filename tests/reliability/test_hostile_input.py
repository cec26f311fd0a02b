"""Items 5, 9 and 10: hostile names, out-of-range references and sizes, user files that hang or exit
while being imported."""

import pytest
from _support import FILES, HOSTILE, history, workload

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability


def test_names_that_look_like_rich_markup_are_printed_as_typed(tmp_path):
    r = lb("run", "-w", workload("MARKUP"), "--budget", "0.1", "--no-diagnose", "--db", str(tmp_path / "r.db"))
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    for typed in ("w[/x]", "[bold]np[/bold]", "b[/]", "ratio to [bold]np[/bold]", "[x]: [red]why[/red]"):
        assert typed in r.stdout, typed


def test_a_statement_with_brackets_is_shown_as_typed():
    import numpy as np

    import levelbench

    x = np.ones(3)
    m = levelbench.measure(lambda: list(map(np.sin, [x] * 10)), label="map(np.sin, [x]*1000)", budget=0.05)
    assert "map(np.sin, [x]*1000)" in str(m)


def test_run_references_out_of_range_are_refused_with_the_valid_range(tmp_path):
    db = str(tmp_path / "r.db")
    assert lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--in-process", "--no-diagnose", "--db", db).returncode == 0
    for ref in ("latest~99", str(2**63), "latest~" + "9" * 30):
        r = lb("export", ref, "--db", db)
        assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
        assert "ids 1..1" in r.stderr


@pytest.mark.parametrize("args, says", [
    (["--n", "-5"], "--n expects an integer from 1 to 1,000,000, got '-5'"),
    (["--n", "1e20"], "--n expects an integer from 1 to 1,000,000, got '1e20'"),
    (["--n", "900000"], "needs about 26.5 TiB for its arrays"),
])
def test_bad_sizes_are_refused_up_front_and_not_recorded(tmp_path, args, says):
    db = tmp_path / "r.db"
    r = lb("run", "-w", "matmul", *args, "--db", str(db))
    assert r.returncode == 2 and says in r.stderr and "Traceback" not in r.stderr, r.stderr
    assert not db.exists()


def test_a_build_returning_the_wrong_type_names_the_expected_type(tmp_path):
    r = lb("run", "-w", workload("WRONG_TYPE"), "--budget", "0.1", "--db", str(tmp_path / "r.db"))
    assert r.returncode == 1
    assert "build() must return a dict of name -> Candidate or Skipped, got list" in r.stdout
    assert 'File "' not in r.stdout + r.stderr  # no traceback: the message says it all


@pytest.mark.parametrize("file, status, says, others", [
    ("hang_at_import.py", "timeout", "took longer than 2 s (--timeout)", []),
    ("exit_at_import.py", "failed", "called sys.exit(3)", ["QUICK"]),
    ("os_exit_at_import.py", "failed", "exited with code 4", ["QUICK"]),
])
def test_a_workload_file_is_imported_in_a_worker_under_the_timeout(tmp_path, file, status, says, others):
    db = tmp_path / "r.db"
    more = [a for w in others for a in ("-w", workload(w))]
    r = lb("run", "-w", f"{FILES / file}:W", *more, "--timeout", "2" if not others else "120", "--budget", "0.1",
           "--no-diagnose", "--db", str(db), timeout=120)
    assert r.returncode == 1 and "Traceback" not in r.stderr, r.stdout + r.stderr
    assert says in r.stdout
    (run,) = history(db)
    assert run["status"] == ("partial" if others else "failed")  # the file's workload failed; the others ran
    r = lb("export", "--db", str(db))
    assert '"status": "' + status + '"' in r.stdout


def test_emoji_codes_in_a_workload_path_are_shown_as_typed_in_the_progress_bar_too(tmp_path):
    # "w.py:OK" then ": building candidates" made ":OK:", which Rich turned into an emoji; only on a
    # terminal (the bar is drawn there), which TTY_COMPATIBLE/TTY_INTERACTIVE make Rich assume here
    folder = tmp_path / "wl[" / "[red]"
    folder.mkdir(parents=True)
    (folder / "w.py").write_text(HOSTILE.read_text() + "\nOK = QUICK\n")
    r = lb("run", "-w", f"{folder / 'w.py'}:OK", "--budget", "0.3", "--no-diagnose", "--db", str(tmp_path / "r.db"),
           env={"TTY_COMPATIBLE": "1", "TTY_INTERACTIVE": "1", "COLUMNS": "300"})
    assert r.returncode == 0, r.stdout + r.stderr
    assert "w.py:OK:" in r.stdout  # the bar was drawn, with the label as typed
    assert "\U0001f197" not in r.stdout + r.stderr  # 🆗
