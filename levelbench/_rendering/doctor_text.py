"""The doctor's terminal output, like the linters people already use.

    002_dot_question.py:2:25: LB113 `jix` is not in `jax` (installed jax 0.10.2): ...
        2 | from jax import random, jix
          |                         ^^^

Renderers only read a `DoctorReport`; they never analyse.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, TextIO

from .._values.findings import Severity
from ..doctor import Diagnostic, DoctorReport
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
    """Findings to ``out`` (with the source line and a caret unless ``concise``); unreadable inputs to ``err``.

    Written as plain strings (with the console's colour codes) in batches: a long generated file has
    hundreds of thousands of findings, and printing each line through rich took 0.2 ms a finding."""
    if not report.diagnostics:
        out.write(f"{_no_findings(report)}\n")
        return
    console = _console(out, color)
    lines, errors = _Lines(console), _Lines(_console(err, color))
    batch: list[str] = []
    for diagnostic in report.diagnostics:
        if diagnostic.code == "LB100":
            err.write(errors.line(_headline_pieces(diagnostic)))
            continue
        batch.append(lines.line(_headline_pieces(diagnostic)))
        if not concise:
            batch.extend(lines.line(pieces) for pieces in _excerpt_pieces(diagnostic))
            if show_fixes:
                batch.extend(lines.line(pieces) for pieces in _fix_pieces(diagnostic))
        if len(batch) >= 2000:
            out.write("".join(batch))
            batch.clear()
    out.write("".join(batch))
    console.print(_summary(report))


# What rich's strip_control_codes removes (bell, backspace, vertical tab, form feed, carriage return).
_CONTROL = re.compile("[\x07\x08\x0b\x0c\x0d]")
# A line of output: its pieces, each with the rich style it is shown in (None: unstyled).
_Pieces = list[tuple[str, "str | None"]]


class _Lines:
    """Lines of styled pieces as the text ``console`` would print for them: its colour codes (found once per
    style), control characters removed as rich removes them."""

    def __init__(self, console: Console) -> None:
        self.console = console
        self._codes: dict[str, tuple[str, str]] = {}
        self._plain = console.color_system is None  # no colour codes at all: rich writes the bare text

    def line(self, pieces: _Pieces) -> str:
        text = "".join(piece for piece, _ in pieces)
        if "\t" in text:  # rare: rich's own tab expansion, segment by segment
            with self.console.capture() as captured:
                self.console.print(_as_text(pieces))
            return captured.get()
        if _CONTROL.search(text) is not None:  # rare too: removed as rich removes them
            from rich.control import strip_control_codes

            pieces = [(strip_control_codes(piece), style) for piece, style in pieces]
            text = "".join(piece for piece, _ in pieces)
        if self._plain:
            return text + "\n"
        return "".join(self._styled(piece, style) for piece, style in pieces) + "\n"

    def _styled(self, text: str, style: str | None) -> str:
        if not style or not text:
            return text
        codes = self._codes.get(style)
        if codes is None:
            from rich.text import Text

            with self.console.capture() as captured:
                self.console.print(Text("\0", style=style), end="")
            before, _, after = captured.get().partition("\0")
            codes = self._codes[style] = (before, after)
        return f"{codes[0]}{text}{codes[1]}"


def _as_text(pieces: _Pieces) -> Text:
    from rich.text import Text

    text = Text()
    for piece, style in pieces:
        text.append(piece, style=style)
    return text


def _headline(diagnostic: Diagnostic) -> Text:
    return _as_text(_headline_pieces(diagnostic))


def _excerpt(diagnostic: Diagnostic) -> list[Text]:
    return [_as_text(pieces) for pieces in _excerpt_pieces(diagnostic)]


def _headline_pieces(diagnostic: Diagnostic) -> _Pieces:
    return [
        (str(diagnostic.location), "bold"), (": ", None),
        (diagnostic.code, SEVERITY_STYLE[diagnostic.severity]), (f" {diagnostic.message}", None),
    ]


def _excerpt_pieces(diagnostic: Diagnostic) -> list[_Pieces]:
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
    caret = " " * start + "^" * (end - start)
    return [  # both lines dim, the caret in its severity's colour too
        [(f"{gutter.rjust(width)} | {source}", "dim")],
        [(f"{' ' * width} | ", "dim"), (caret, f"dim {SEVERITY_STYLE[diagnostic.severity]}")],
    ]


def _fix_pieces(diagnostic: Diagnostic) -> list[_Pieces]:
    if not diagnostic.finding.fix:
        return []
    return [[("      = fix:", "bold")]] + [[(f"          {line}", "green")] for line in diagnostic.finding.fix.splitlines()]


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
