"""``levelbench doctor --fix``: apply the findings' edits to scripts and notebooks, until nothing is left to fix.

Like ruff, fixing goes in passes: diagnose, apply every fix that does not touch another one, diagnose
the new text, and again (a fix that overlaps another waits for the next pass, where it is
recomputed on the edited text). A pass that would make a file stop parsing is retried fix by fix,
and a fix that breaks it is skipped and reported. Notebooks are edited cell by cell: only the
``source`` of the code cells that change is rewritten; outputs, metadata and other cells are kept
as they were.

!!! Example
    >>> from levelbench.doctor import fix_source
    >>> fix_source("import numpy as np\\nx = np.random.normal((3, 3))\\n", "b.py").text
    'import numpy as np\\nx = np.random.normal(size=(3, 3))\\n'
"""

from __future__ import annotations

import ast
import collections
import dataclasses
import difflib
import json
import os
import re
from collections.abc import Iterable, Sequence

from .._measuring.threads import usable_cores
from .._values.catalogue import RULES, resolve_codes
from .._values.findings import Severity
from ._diagnostic import Diagnostic, DoctorReport, Edit, Fix
from ._config import ConfigChoice, Options, Settings
from ._engine import check_jobs, diagnose, iter_configured, map_inputs, selected_codes, unreadable
from ._load import DEFAULT_MAX_BYTES, SourceText
from ._notebook import NotebookError, code_cells
from ._program import Program

MAX_PASSES = 10
"""Passes before giving up on reaching a fixed point (each pass applies every non-overlapping fix)."""


@dataclasses.dataclass(frozen=True)
class FixResult:
    """One input, before and after fixing.

    Attributes:
        path: the input's path (``<stdin>`` for standard input).
        original, text: the source (notebook JSON for a notebook) before and after.
        before: the findings before fixing (after selection and suppression).
        after: the findings left in ``text``.
        skipped: fixes not applied because the file would not parse, one line each.
        notebook: ``text`` is notebook JSON.
    """

    path: str
    original: str
    text: str
    before: tuple[Diagnostic, ...]
    after: tuple[Diagnostic, ...]
    skipped: tuple[str, ...] = ()
    notebook: bool = False

    @property
    def changed(self) -> bool:
        return self.text != self.original

    @property
    def fixed(self) -> collections.Counter[str]:
        """How many findings of each code the fixes removed."""
        return collections.Counter(d.code for d in self.before) - collections.Counter(d.code for d in self.after)

    def diff(self) -> str:
        """A unified diff of the change (for a notebook, one per changed cell, named ``path:cell_N``)."""
        if not self.changed:
            return ""
        if not self.notebook:
            return _unified(self.original, self.text, self.path, self.path)
        before, after = _cell_sources(self.original), _cell_sources(self.text)
        return "".join(
            _unified(before[n], after[n], f"{self.path}:cell_{n}", f"{self.path}:cell_{n}")
            for n in sorted(after) if before.get(n) != after[n]
        )


@dataclasses.dataclass(frozen=True)
class FixReport:
    """The result of fixing some paths."""

    results: tuple[FixResult, ...]
    unreadable: tuple[Diagnostic, ...] = ()
    fail_on: tuple[tuple[str, Severity], ...] = ()
    configs: tuple[tuple[str, str], ...] = ()

    @property
    def remaining(self) -> DoctorReport:
        """The findings left after fixing, as a `DoctorReport` for the renderers."""
        diagnostics = [*self.unreadable, *(d for r in self.results for d in r.after)]
        files = tuple(r.path for r in self.results) + tuple(d.location.path for d in self.unreadable)
        return DoctorReport(tuple(diagnostics), files, self.fail_on, self.configs)

    @property
    def fixed(self) -> collections.Counter[str]:
        total: collections.Counter[str] = collections.Counter()
        for result in self.results:
            total += result.fixed
        return total

    @property
    def found(self) -> int:
        return sum(len(r.before) for r in self.results) + len(self.unreadable)


def fix_source(
    source: str,
    path: str = "<string>",
    *,
    notebook: bool | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    fix_only: Iterable[str] | None = None,
    unsafe: bool = False,
) -> FixResult:
    """Fix one script (or notebook JSON): the safe fixes, and the unsafe ones when ``unsafe``.

    ``select``/``ignore`` choose the rules as for `lint_source` (and ``# levelbench: ignore[...]``
    comments are respected); ``fix_only`` limits which of the selected rules are fixed.
    """
    is_notebook = path.endswith(".ipynb") if notebook is None else notebook
    codes = selected_codes(select, ignore)
    fixing = resolve_codes(fix_only) if fix_only else frozenset(RULES)
    return _fix(SourceText(path, source, is_notebook), codes, fixing, unsafe)


def fix_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    fix_only: Iterable[str] | None = None,
    unsafe: bool = False,
    exclude: Iterable[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    stdin_name: str = "<stdin>",
    fail_on: str | Severity | None = None,
    config: ConfigChoice = False,
    jobs: int | None = None,
) -> FixReport:
    """Fix files, notebooks and directories; nothing is written (see `FixResult.text`, `write_fixes`).

    ``config`` and the selection options work as in `lint_paths`: only the findings a file would
    report (its configuration, ``per-file-ignores`` and suppression comments applied) are fixed.
    ``jobs`` as in `lint_paths`.
    """
    check_jobs("fix_paths", jobs)
    settings = Settings(Options.of(select, ignore, fail_on, exclude, config))
    fixing = resolve_codes(fix_only) if fix_only else frozenset(RULES)
    processes = usable_cores() if jobs is None else jobs
    checked = map_inputs(
        iter_configured(paths, settings, max_bytes=max_bytes, stdin_name=stdin_name),
        here=lambda source, codes: _fix(source, codes, fixing, unsafe, processes),
        task=_fix_file,
        shared=(fixing, unsafe),
        unpack=_unpacked_fix,
        processes=processes,
    )
    results: list[FixResult] = []
    unreadables: list[Diagnostic] = []
    for item, applied, result in checked:
        if result is not None:
            results.append(result)
        elif "LB100" in applied.codes:
            unreadables.append(unreadable(item.path, item.message))  # type: ignore[union-attr]
    files = tuple(r.path for r in results) + tuple(d.location.path for d in unreadables)
    empty = settings.report((), files)
    return FixReport(tuple(results), tuple(unreadables), empty.fail_on, empty.configs)


def _fix_file(how: tuple[frozenset[str], bool], item: tuple[SourceText, frozenset[str]]) -> tuple:
    """One short file fixed, its findings packed (a task of `map_inputs`): the text, before, after, skipped."""
    (fixing, unsafe), (source, codes) = how, item
    fixed = _fix(source, codes, fixing, unsafe, 1)
    return fixed.text, [d.packed() for d in fixed.before], [d.packed() for d in fixed.after], fixed.skipped


def _unpacked_fix(source: SourceText, packed: tuple) -> FixResult:
    """The `FixResult` of ``source`` that `_fix_file` packed."""
    text, before, after, skipped = packed
    findings = [tuple(Diagnostic.unpacked(source.path, p) for p in found) for found in (before, after)]
    return FixResult(source.path, source.text, text, *findings, skipped, source.notebook)


def applicable(diagnostic: Diagnostic, fixing: frozenset[str], unsafe: bool) -> bool:
    """Whether ``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) applies this finding's fix."""
    if diagnostic.fix is None or diagnostic.code not in fixing:
        return False
    safety = RULES[diagnostic.code].fix_safety
    return safety == "safe" or (unsafe and safety == "unsafe")


def _fix(
    source: SourceText, codes: frozenset[str], fixing: frozenset[str], unsafe: bool, jobs: int | None = None
) -> FixResult:
    before = diagnose(source, codes, jobs=jobs)
    text = source.text
    current = before
    skipped: list[str] = []
    refused: set[tuple[str, int, str]] = set()
    for _ in range(MAX_PASSES):
        fixes = [
            d for d in current
            if applicable(d, fixing, unsafe) and (d.code, d.location.cell, d.source_line.strip()) not in refused
        ]
        if not fixes:
            break
        chosen: list[Diagnostic] = []
        for diagnostic in sorted(fixes, key=lambda d: (min(e.start for e in d.fix.edits), d.code)):  # type: ignore[union-attr]
            if not any(diagnostic.fix.overlaps(c.fix) for c in chosen):  # type: ignore[union-attr, arg-type]
                chosen.append(diagnostic)
        new_text, broken = _apply_parsing(text, source.notebook, chosen, source.path)
        for diagnostic in broken:
            refused.add((diagnostic.code, diagnostic.location.cell, diagnostic.source_line.strip()))
            skipped.append(f"{diagnostic.location}: {diagnostic.code} fix skipped: the result would not parse")
        if new_text == text:
            if not broken:
                break
            continue
        text = new_text
        current = diagnose(dataclasses.replace(source, text=text), codes, jobs=jobs)
    after = current if text != source.text else before
    return FixResult(source.path, source.text, text, before, after, tuple(skipped), source.notebook)


def _apply_parsing(
    text: str, notebook: bool, chosen: Sequence[Diagnostic], path: str
) -> tuple[str, list[Diagnostic]]:
    """The text with the chosen fixes applied, and the fixes left out because they broke parsing."""
    baseline = _parse_state(text, notebook, path)
    candidate = _apply(text, notebook, [d.fix for d in chosen])  # type: ignore[misc]
    if _parse_state(candidate, notebook, path) <= baseline:
        return candidate, []
    kept: list[Fix] = []
    broken: list[Diagnostic] = []
    for diagnostic in chosen:
        attempt = _apply(text, notebook, [*kept, diagnostic.fix])  # type: ignore[list-item]
        if _parse_state(attempt, notebook, path) <= baseline:
            kept.append(diagnostic.fix)  # type: ignore[arg-type]
        else:
            broken.append(diagnostic)
    return _apply(text, notebook, kept), broken


def _parse_state(text: str, notebook: bool, path: str) -> tuple[int, int]:
    """(parses as plain Python? 0 yes 1 no, parse problems the doctor sees): no fix may make either worse."""
    plain = 0
    if not notebook and not path.endswith(".ipy"):
        try:
            ast.parse(text)
        except (SyntaxError, ValueError):
            plain = 1
    try:
        program = Program.from_notebook(path, code_cells(text)) if notebook else Program.from_python(path, text)
    except (NotebookError, ValueError, RecursionError):
        return (plain, 10**6)
    return (plain, len(program.problems))


# --- applying edits ----------------------------------------------------------------------------
def _apply(text: str, notebook: bool, fixes: Sequence[Fix]) -> str:
    edits = [e for fix in fixes for e in fix.edits]
    if not notebook:
        return _apply_to_text(text, [e for e in edits if e.cell == 0])
    nb = json.loads(text)
    by_cell: dict[int, list[Edit]] = collections.defaultdict(list)
    for edit in edits:
        by_cell[edit.cell].append(edit)
    for number, cell_edits in by_cell.items():
        cell = nb["cells"][number - 1]
        source = cell.get("source", "")
        joined = "".join(source) if isinstance(source, list) else source
        fixed = _apply_to_text(joined, cell_edits)
        cell["source"] = fixed.splitlines(keepends=True) if isinstance(source, list) else fixed
    return _dump_like(nb, text)


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _apply_to_text(text: str, edits: Sequence[Edit]) -> str:
    """Apply ``edits`` (lines from 1, character columns) to ``text``, last first so positions hold."""
    starts = [0] + [m.end() for m in _LINE_BREAK.finditer(text)]
    newline = m.group(0) if (m := _LINE_BREAK.search(text)) else "\n"

    def offset(line: int, column: int) -> int:
        if line - 1 >= len(starts):
            return len(text)
        start = starts[line - 1]
        end = starts[line] if line < len(starts) else len(text)
        content = text[start:end].rstrip("\r\n")
        return start + min(column, len(content))

    out = text
    ordered = sorted(edits, key=lambda e: (e.line, e.column, e.start != e.end), reverse=True)
    for edit in ordered:
        begin, end = offset(edit.line, edit.column), offset(edit.end_line, edit.end_column)
        out = out[:begin] + edit.text.replace("\n", newline) + out[end:]
    return out


def _dump_like(nb: object, original: str) -> str:
    """``nb`` as JSON in the layout of ``original`` (indentation, escaping, final newline)."""
    m = re.match(r"\{\s*?\n([ \t]+)\"", original)
    indent: int | str | None = None
    if m:
        indent = len(m.group(1)) if set(m.group(1)) == {" "} else m.group(1)
    ensure_ascii = original.isascii() and "\\u" in original
    text = json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii)
    return text + "\n" if original.endswith("\n") else text


def _cell_sources(text: str) -> dict[int, str]:
    nb = json.loads(text)
    found = {}
    for number, cell in enumerate(nb.get("cells", []), start=1):
        source = cell.get("source", "")
        found[number] = "".join(source) if isinstance(source, list) else source
    return found


def _unified(before: str, after: str, old: str, new: str) -> str:
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=old, tofile=new
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
