"""Writing ``--fix``'s results back: each file whole or not at all, and only where the user asked.

A fixed file is written with `replace_file` (a temporary file beside it, renamed over it: a full disk or
a signal leaves the original as it was), in the encoding it was read in, and only if it still holds the
text that was fixed (an edit made while the doctor ran is kept, and said). A file reached through a
symbolic link while searching a directory is written only when the link's target lies inside that
directory: a cloned repository's ``bench.py -> /elsewhere/victim.py`` is not followed out of the tree.
A file named on the command line is the user's choice, link or not. The same file reached by two names
is written once. A file that cannot be written is skipped with the reason, and the others are still
written; Ctrl-C stops after the file being written (held until it is written whole), and says which were.

What ``--fix`` / ``--diff`` does with each result is decided here too (`plan_fixes`: show a diff, show the fixed
standard input, or write the file), and whether the command then fails (`fix_failed`); the command prints.
"""

from __future__ import annotations

import io
import os
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from .._values.files import FileChanged, replace_file, why_not_written
from .._values.signals import interrupts_held
from ._diagnostic import DoctorReport
from ._fixer import FixResult
from ._load import SourceText, read_file


@dataclass
class Written:
    """What `write_fixes` did: the files written, and those left as they were with the reason."""

    written: list[str] = field(default_factory=list)
    skipped: list[tuple[str, str]] = field(default_factory=list)
    interrupted: KeyboardInterrupt | None = None


@dataclass(frozen=True)
class Shown:
    """A text for the command to print as it is (its line ends included): on standard error if ``err``."""

    text: str
    err: bool = False


@dataclass
class FixPlan:
    """What `plan_fixes` decided: the texts to show first, in order; the results to write (`write_fixes`)
    after; and whether anything would change (for ``--diff``: whether the diff is not empty)."""

    shown: list[Shown] = field(default_factory=list)
    to_write: list[FixResult] = field(default_factory=list)
    changed: bool = False


def plan_fixes(results: Iterable[FixResult], *, diff: bool, stdin_name: str | None = None) -> FixPlan:
    """For each result: the fixes it skipped (on standard error), then its diff with ``diff``, the whole fixed
    text if it is standard input (``stdin_name``: the name it was read under; None: not read), or, changed, a
    file to write."""
    plan = FixPlan()
    for result in results:
        plan.shown.extend(Shown(line + "\n", err=True) for line in result.skipped)
        if stdin_name is not None and result.path == stdin_name:
            plan.shown.append(Shown(result.diff() if diff else result.text))
            plan.changed |= result.changed
            continue
        if not result.changed:
            continue
        plan.changed = True
        if diff:
            plan.shown.append(Shown(result.diff()))
        else:
            plan.to_write.append(result)
    return plan


def fix_failed(remaining: DoctorReport, *, diff: bool, changed: bool, unwritten: Sequence[str]) -> bool:
    """Whether ``doctor --fix``/``--diff`` fails (exit 1): a failing finding is left (``remaining``), a diff is
    not empty (``changed``: there is something to fix, as ``ruff --diff`` says), or a fixed file was not
    written."""
    return bool(remaining.failing()) or (diff and changed) or bool(unwritten)


def write_fixes(results: Iterable[FixResult], paths: Sequence[str]) -> Written:
    """Write each changed result over its file; ``paths`` are the arguments the files were found from
    (a directory bounds where links may lead). Never raises for one file: see `Written`."""
    outcome = Written()
    seen: set[str] = set()
    try:
        for result in results:
            if not result.changed:
                continue
            real = os.path.realpath(result.path)
            if real in seen:
                continue
            why = _outside(result.path, real, paths)
            if why:
                outcome.skipped.append((result.path, why))
                continue
            seen.add(real)
            with interrupts_held() as caught:  # a file written is a file said to be written
                try:
                    write_fixed(result)
                except FileChanged:
                    outcome.skipped.append((result.path, "changed since the doctor read it: not written, so that "
                                            "the change is kept; run the doctor again"))
                except OSError as e:
                    outcome.skipped.append((result.path, f"cannot be written ({why_not_written(e)})"))
                else:
                    outcome.written.append(result.path)
            if caught:
                raise caught[0]
    except KeyboardInterrupt as e:  # between two files, or while one was written (then it is untouched)
        outcome.interrupted = e
    return outcome


def write_fixed(result: FixResult) -> None:
    """Write ``result.text`` over its file, in the file's own encoding (byte order marks kept), if the file
    still holds ``result.original``; `FileChanged` if not, `OSError` as it comes."""
    if not result.changed:
        return
    # a notebook's text keeps its byte order mark as a character (see _load): written back as plain UTF-8
    encoding = "utf-8" if result.notebook else _encoding(Path(result.path).read_bytes())

    def still_as_read() -> bool:
        current = read_file(Path(result.path), max(len(result.original) * 4, 1 << 20))
        return isinstance(current, SourceText) and current.text == result.original

    replace_file(result.path, result.text, encoding=encoding, expect=still_as_read)


def _outside(name: str, real: str, paths: Sequence[str]) -> str:
    """Why ``name`` (found from ``paths``) is not written through its link; empty if it may be."""
    if os.path.abspath(name) == real:
        return ""  # not a link
    for arg in paths:
        if arg == "-":
            continue
        if os.path.abspath(arg) == os.path.abspath(name):
            return ""  # named on the command line: the user chose it
    for arg in paths:
        if arg != "-" and os.path.isdir(arg) and Path(os.path.abspath(name)).is_relative_to(os.path.abspath(arg)):
            root = os.path.realpath(arg)
            if Path(real).is_relative_to(root):
                return ""
            return (f"not written: a symbolic link to {real}, outside {arg}; to fix that file, name it: "
                    f"levelbench doctor --fix {real}")
    return ""


def _encoding(data: bytes) -> str:
    try:
        return tokenize.detect_encoding(io.BytesIO(data).readline)[0]
    except SyntaxError:
        return "utf-8"
