"""The doctor's terminal output, like the linters people already use.

    002_dot_question.py:2:25: LB113 `jix` is not in `jax` (installed jax 0.10.2): ...
        2 | from jax import random, jix
          |                         ^^^

Renderers only read a `DoctorReport`; they never analyse.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TextIO

from .._values.findings import Severity
from ..doctor._diagnostic import Diagnostic, DoctorReport
from .terminal import SEVERITY_STYLE, console

if TYPE_CHECKING:
    from rich.console import Console
    from rich.text import Text

def _console(stream: TextIO, color: bool | None) -> Console:
    return console(file=stream, color=color, width=None, highlight=False, soft_wrap=True, emoji=False, markup=False)


def render_text(
    report: DoctorReport,
    out: TextIO,
    err: TextIO,
    *,
    concise: bool = False,
    show_fixes: bool = False,
    color: bool | None = None,
) -> None:
    """Findings to ``out`` (with the source line and a caret unless ``concise``); unreadable inputs to ``err``."""
    if not report.diagnostics:
        out.write(f"{_no_findings(report)}\n")
        return
    console = _console(out, color)
    errors = _console(err, color)
    for diagnostic in report.diagnostics:
        if diagnostic.code == "LB100":
            errors.print(_headline(diagnostic))
            continue
        console.print(_headline(diagnostic))
        if concise:
            continue
        for line in _excerpt(diagnostic):
            console.print(line)
        if show_fixes and diagnostic.finding.fix:
            console.print("      = fix:", style="bold")
            for line in diagnostic.finding.fix.splitlines():
                console.print(f"          {line}", style="green")
    console.print(_summary(report))


def _headline(diagnostic: Diagnostic) -> Text:
    from rich.text import Text

    text = Text()
    text.append(str(diagnostic.location), style="bold")
    text.append(": ")
    text.append(diagnostic.code, style=SEVERITY_STYLE[diagnostic.severity])
    text.append(" ")
    text.append(diagnostic.message)
    return text


def _excerpt(diagnostic: Diagnostic) -> list[Text]:
    from rich.text import Text

    source = diagnostic.source_line.rstrip("\n").expandtabs(1)
    if not source.strip():
        return []
    location = diagnostic.location
    gutter = str(location.line)
    width = len(gutter) + 4
    start = min(max(location.column - 1, 0), len(source))
    end = location.end_column - 1 if location.end_line == location.line else len(source.rstrip())
    end = min(max(end, start + 1), max(len(source), start + 1))
    source, start, end = _around(source, start, end)
    line = Text(f"{gutter.rjust(width)} | ", style="dim")
    line.append(source)
    caret = Text(f"{' ' * width} | ", style="dim")
    caret.append(" " * start + "^" * (end - start), style=SEVERITY_STYLE[diagnostic.severity])
    return [line, caret]


EXCERPT_WIDTH = 120  # characters of a source line shown; a minified file's 100 kB line is cut around the column
_CUT = "..."


def _around(source: str, start: int, end: int) -> tuple[str, int, int]:
    """At most `EXCERPT_WIDTH` characters of ``source`` around ``[start, end)``, cuts marked ``...``; the
    span's new start and end. A span longer than the window is shown from its start."""
    if len(source) <= EXCERPT_WIDTH:
        return source, start, end
    end = min(end, start + EXCERPT_WIDTH // 2)
    left = max(0, min(start - EXCERPT_WIDTH // 3, len(source) - EXCERPT_WIDTH))
    right = min(len(source), left + EXCERPT_WIDTH)
    prefix = _CUT if left else ""
    suffix = _CUT if right < len(source) else ""
    shift = len(prefix) - left
    return f"{prefix}{source[left:right]}{suffix}", start + shift, min(end, right) + shift


def _no_findings(report: DoctorReport) -> str:
    files = len(report.files)
    return f"No findings in {files} file{'' if files == 1 else 's'}."


def _summary(report: DoctorReport) -> Text:
    from rich.text import Text

    counts = report.counts()
    total = sum(counts.values())
    if total == 0:
        return Text(_no_findings(report), style="bold green")
    files = len(report.files)
    noun = "file" if files == 1 else "files"
    parts = [
        f"{n} {s.name.lower()}{'s' if n != 1 and s is not Severity.INFO else ''}"
        for s, n in sorted(counts.items(), reverse=True)
        if n
    ]
    findings = f"{total} finding{'s' if total != 1 else ''}"
    text = Text(f"\nFound {findings} ({', '.join(parts)}) in {files} {noun}.", style="bold")
    text.append("\nRun `levelbench doctor --explain CODE` for why each matters and how to fix it.", style="dim")
    return text
