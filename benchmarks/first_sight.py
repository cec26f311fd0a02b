"""Score new real cases at first sight and record the result in each case file, once.

Run it on the cases you add to tests/doctor_cases/real/, after writing their headers and before
changing anything in levelbench/ for them::

    python benchmarks/first_sight.py tests/doctor_cases/real/048_*.py tests/doctor_cases/real/049_*.py
    python benchmarks/first_sight.py --static-only NEW_CASES...   # explain later, same commit

For each case file (``NNN_slug.py``) without a ``# first-sight:`` line it adds the line after
``# lines:``, moving the ``lines:`` labels down by one with the code, and fills it with the static
doctor's result on the file in that final layout, as posted and as a notebook. For its runnable copy
(``NNN_slug_run.py``, where ``dynamic:`` is not n/a) without one it runs explain, in a process of
its own as doctor_accuracy.py does, and adds the line after ``# dynamic:``. A file that has the line
is left as it is: the line is written once and never rewritten, whatever the doctor becomes. The
line names the last commit that changed levelbench/ (the doctor that scored it); a working tree
whose levelbench/ differs from that commit is refused, since its result would name a doctor nobody
can check out. Format: benchmarks/first_sight_record.py.
"""

from __future__ import annotations

import argparse
import datetime
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from doctor_accuracy import (  # noqa: E402  (the corpus reader and scorer, one home)
    FIRST_SIGHT_KEY, Case, Reported, explain_case, judge, read_case, read_header, static_findings,
)
from first_sight_record import FirstSight, format_first_sight  # noqa: E402

# Stands in for the first-sight line while the case is scored in its final layout (one header line
# longer); a bare "#" ends the header for read_header, and fails the header test if it is ever left.
PLACEHOLDER = "#\n"


def doctor_commit(allow_dirty: bool = False) -> str:
    """The last commit that changed levelbench/ (the doctor that scores); refuses a modified levelbench/.

    Not HEAD: commits that only add cases or touch benchmarks leave the doctor as it was, and the
    line names the doctor.
    """
    def git(*args: str) -> str:
        return subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, check=True).stdout.strip()

    import levelbench

    imported = Path(levelbench.__file__).resolve().parent
    if imported != ROOT / "levelbench":
        raise SystemExit(f"the doctor imported is {imported}, not this checkout's {ROOT / 'levelbench'}: its result "
                         "would be recorded under a commit that did not make it. Run this checkout's copy of the "
                         f"script with nothing else ahead of it on the path (PYTHONPATH={ROOT} python "
                         "benchmarks/first_sight.py ...)")
    changed = git("status", "--porcelain", "--", "levelbench")
    if changed and not allow_dirty:
        raise SystemExit("levelbench/ has changes that are not committed; first sight must name the doctor "
                         f"that scored it. Commit or stash them first:\n{changed}")
    return git("log", "-1", "--format=%h", "--", "levelbench")


def static_first_sight(case: Case, commit: str, date: datetime.date) -> FirstSight:
    """The static doctor's result on ``case`` as a .py file and as a notebook."""
    forms = {}
    with tempfile.TemporaryDirectory(prefix="first_sight_") as tmp:
        for form in ("py", "notebook"):
            findings, _ = static_findings(case, form, Path(tmp))
            forms[form] = judge(case.static, findings, case.lines)
    return FirstSight(commit=commit, date=date, forms=forms)


def explain_first_sight(case: Case, commit: str, date: datetime.date, budget: float, timeout: float) -> FirstSight:
    """explain's result (warning or worse) on the runnable copy of ``case``."""
    result, _ = explain_case(case, budget, timeout)
    if result.get("crash") or any(fn["error"] for fn in result["functions"]):
        problems = [result.get("crash")] + [fn["error"] for fn in result["functions"]]
        raise RuntimeError(f"{case.run_path.name}: explain did not run: {[p for p in problems if p]}; "
                           "mend the runnable copy (not the doctor) and score it again")
    # scored as doctor_accuracy.py scores explain: one finding per (function, code), no lines
    findings = [Reported(case.name, f["code"], 0, "") for fn in result["functions"] for f in fn["findings"] if f["scored"]]
    return FirstSight(commit=commit, date=date, forms={"explain": judge(case.dynamic or frozenset(), findings, {})})


def insert_line(path: Path, after_key: str, value: str) -> None:
    """Write ``# first-sight: value`` right after the header line ``# after_key: ...``."""
    lines = path.read_text().splitlines(keepends=True)
    for i, line in enumerate(lines):
        if line.startswith(f"# {after_key}: "):
            lines.insert(i + 1, f"# {FIRST_SIGHT_KEY}: {value}\n")
            path.write_text("".join(lines))
            return
        if not line.startswith("# "):
            break
    raise ValueError(f"{path.name}: no '# {after_key}:' line in its header to write first sight after")


def make_room(path: Path) -> None:
    """Insert a placeholder first-sight line and move the ``lines:`` labels down by one to match.

    The first-sight line goes into the header, above the code, so every code line moves down by one;
    the labels are moved with it, and the case is scored in this final layout, so the line numbers
    in ``lines:`` and in the recorded result both name the lines of the file as committed.
    """
    text = path.read_text()
    head, sep, rest = text.partition("\n# lines: ")
    if not sep:
        raise ValueError(f"{path.name}: no '# lines:' line in its header to write first sight after")
    value, nl, tail = rest.partition("\n")
    if value.strip() == "none":
        shifted = value
    else:
        entries = []
        for entry in value.split(","):
            code, _, numbers = entry.strip().partition(":")
            entries.append(f"{code}:" + "/".join(str(int(n) + 1) for n in numbers.split("/")))
        shifted = ", ".join(entries)
    path.write_text(head + sep + shifted + nl + PLACEHOLDER + tail)


def replace_placeholder(path: Path, value: str) -> None:
    head, sep, rest = path.read_text().partition("\n# lines: ")
    labels, nl, tail = rest.partition("\n")
    if not tail.startswith(PLACEHOLDER):
        raise ValueError(f"{path.name}: expected the first-sight placeholder after '# lines:'")
    path.write_text(head + sep + labels + nl + f"# {FIRST_SIGHT_KEY}: {value}\n" + tail[len(PLACEHOLDER):])


def record(paths: list[Path], *, static: bool = True, explain: bool = True, budget: float = 5.0,
           timeout: float = 600.0, allow_dirty: bool = False, today: datetime.date | None = None) -> list[str]:
    """Score and record every case in ``paths`` that has no first-sight line yet; returns what was done."""
    commit = doctor_commit(allow_dirty)
    today = today or datetime.date.today()
    done = []
    for path in paths:
        if path.stem.endswith("_run"):  # a runnable copy is scored with its case
            path = path.with_name(path.stem[: -len("_run")] + ".py")
        if static and FIRST_SIGHT_KEY not in read_header(path):
            make_room(path)  # if scoring fails below, the placeholder stays and the header test names it
            line = format_first_sight(static_first_sight(read_case(path), commit, today))
            replace_placeholder(path, line)
            done.append(f"{path.name}: {line}")
        case = read_case(path)
        run_header = read_header(case.run_path) if case.run_path else {}
        if explain and case.run_path and case.dynamic is not None and FIRST_SIGHT_KEY not in run_header:
            line = format_first_sight(explain_first_sight(case, commit, today, budget, timeout))
            insert_line(case.run_path, "dynamic", line)
            done.append(f"{case.run_path.name}: {line}")
    return done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("cases", nargs="+", type=Path, help="new case files (NNN_slug.py; a _run.py names its case)")
    parser.add_argument("--static-only", action="store_true", help="record the static result only")
    parser.add_argument("--explain-only", action="store_true", help="record explain's result only")
    parser.add_argument("--budget", type=float, default=5.0, help="seconds per explain call (default 5)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per runnable copy before giving up")
    args = parser.parse_args()
    unique = list(dict.fromkeys(p.resolve() for p in args.cases))
    for line in record(unique, static=not args.explain_only, explain=not args.static_only,
                       budget=args.budget, timeout=args.timeout):
        print(line)


if __name__ == "__main__":
    main()
