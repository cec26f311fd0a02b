"""``levelbench doctor --fix``: apply the findings' edits to scripts and notebooks, until nothing is left to fix.

Like ruff, fixing goes in passes: diagnose, apply every fix that does not touch another one, diagnose
the new text, and again (a fix that overlaps another waits for the next pass, where it is
recomputed on the edited text). Each pass's result is proven before it is kept (`_proof`): it
parses, and it keeps every comment the text had. A pass that fails is retried fix by fix, and a fix
that fails is skipped, reported, and its finding left as one that needs a manual rewrite.
Notebooks are edited cell by cell: only the ``source`` of the code cells that change is rewritten;
outputs, metadata and other cells are kept as they were, and so is the file's layout.

!!! Example
    >>> from levelbench.doctor import fix_source
    >>> fix_source("import numpy as np\\nx = np.random.normal((3, 3))\\n", "b.py").text
    'import numpy as np\\nx = np.random.normal(size=(3, 3))\\n'
"""

from __future__ import annotations

import collections
import dataclasses
import difflib
import json
import os
import re
from collections.abc import Iterable, Sequence

from .._values.cores import usable_cores
from .._values.catalogue import RULES, resolve_codes
from .._values.findings import Severity
from ._diagnostic import Diagnostic, DoctorReport, Edit, Fix
from ._config import ConfigChoice, Options, Settings
from ._engine import selected_codes, unreadable
from ._schedule import check_jobs, diagnose, iter_configured, map_inputs
from ._load import DEFAULT_MAX_BYTES, SourceText
from ._notebook import BOM, notebook_json
from ._proof import Baseline

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

    def as_written(self, unwritten: Iterable[str]) -> FixReport:
        """This report with the files at ``unwritten`` paths left as they were (their fixes not applied),
        so that what is reported and counted after writing is what the files hold."""
        left = set(unwritten)
        return dataclasses.replace(self, results=tuple(
            dataclasses.replace(r, text=r.original, after=r.before) if r.path in left else r for r in self.results))

    @property
    def fixed(self) -> collections.Counter[str]:
        total: collections.Counter[str] = collections.Counter()
        for result in self.results:
            total += result.fixed
        return total

    @property
    def found(self) -> int:
        return sum(len(r.before) for r in self.results) + len(self.unreadable)

    def unfixed(self, fix_only: Iterable[str] | None = None, unsafe: bool = False) -> Unfixed:
        """Why each finding left after fixing was left, for the fixing ``fix_only`` and ``unsafe``
        asked (as `fix_paths` took them): see `Unfixed`."""
        fixing = fixing_codes(fix_only)
        manual: list[str] = []
        unsafe_only: list[str] = []
        excluded: list[str] = []
        for d in (d for r in self.results for d in r.after):
            if d.fix is not None and d.code in fixing and not unsafe and RULES[d.code].fix_safety == "unsafe":
                unsafe_only.append(d.code)
            elif d.fix is not None and d.code not in fixing and RULES[d.code].fix_safety:
                excluded.append(d.code)
            elif not applicable(d, fixing, unsafe):
                manual.append(d.code)
        return Unfixed(tuple(manual), tuple(unsafe_only), tuple(excluded),
                       len({d.location.path for d in self.unreadable}))


@dataclasses.dataclass(frozen=True)
class Unfixed:
    """The findings a fix left, by why (one code per finding): ``manual`` need a rewrite by hand (no
    fix levelbench writes), ``unsafe`` have a fix that changes what the code computes (written only
    with ``unsafe=True``, ``--unsafe-fixes``), ``excluded`` have a fix that ``fix_only`` left out.
    ``unreadable``: files that could not be read (nothing in them was looked at)."""

    manual: tuple[str, ...] = ()
    unsafe: tuple[str, ...] = ()
    excluded: tuple[str, ...] = ()
    unreadable: int = 0


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
    fixing = fixing_codes(fix_only)
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
    fixing = fixing_codes(fix_only)
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
    seen: set[str] = set()
    for item, applied, result in checked:
        if not _first_time(item.path, stdin_name, seen):  # `a.py ./a.py`: one file, fixed and counted once
            continue
        if result is not None:
            results.append(result)
        elif "LB100" in applied.codes:
            unreadables.append(unreadable(item.path, item.message))  # type: ignore[union-attr]
    files = tuple(r.path for r in results) + tuple(d.location.path for d in unreadables)
    empty = settings.report((), files)
    return FixReport(tuple(results), tuple(unreadables), empty.fail_on, empty.configs)


def fixing_codes(fix_only: Iterable[str] | None) -> frozenset[str]:
    """The rules ``fix_only`` names (codes or prefixes, comma-separated), every rule when it is None or empty.

    Raises:
        ValueError: a pattern names no rule, or the patterns hold no code at all (``--fix-only ''``,
            ``--fix-only ,``), which would fix nothing; the message lists the accepted codes.
    """
    patterns = tuple(fix_only or ())
    if not patterns:
        return frozenset(RULES)
    codes = resolve_codes(patterns)
    if not codes:
        given = ", ".join(repr(p) for p in patterns)
        raise ValueError(f"no rule code given ({given}): expected a code or prefix of {', '.join(RULES)}, or ALL")
    return codes


def _first_time(path: str, stdin_name: str, seen: set[str]) -> bool:
    """Whether ``path`` is an input not met before: a file named twice (``a.py`` and ``./a.py``), or reached
    by two names (a symbolic link beside its target), is met once."""
    key = path if path == stdin_name else os.path.realpath(path)
    if key in seen:
        return False
    seen.add(key)
    return True


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
        fixes = [d for d in current if applicable(d, fixing, unsafe) and _key(d) not in refused]
        if not fixes:
            break
        chosen: list[Diagnostic] = []
        for diagnostic in sorted(fixes, key=lambda d: (min(e.start for e in d.fix.edits), d.code)):  # type: ignore[union-attr]
            if not any(diagnostic.fix.overlaps(c.fix) for c in chosen):  # type: ignore[union-attr, arg-type]
                chosen.append(diagnostic)
        new_text, refusals = _apply_proven(text, source.notebook, chosen, source.path)
        for diagnostic, why in refusals:
            refused.add(_key(diagnostic))
            skipped.append(f"{diagnostic.location}: {diagnostic.code} fix skipped: {why}")
        if new_text == text:
            if not refusals:
                break
            continue
        text = new_text
        current = diagnose(dataclasses.replace(source, text=text), codes, jobs=jobs)
    after = current if text != source.text else before
    if refused:  # what is left of a refused fix is a finding to rewrite by hand, as the summary counts it
        after = tuple(dataclasses.replace(d, fix=None) if _key(d) in refused else d for d in after)
    return FixResult(source.path, source.text, text, before, after, tuple(skipped), source.notebook)


def _key(diagnostic: Diagnostic) -> tuple[str, int, str]:
    """A finding recognised from one pass to the next (its line number moves when a fix above it adds lines)."""
    return (diagnostic.code, diagnostic.location.cell, diagnostic.source_line.strip())


def _apply_proven(
    text: str, notebook: bool, chosen: Sequence[Diagnostic], path: str
) -> tuple[str, list[tuple[Diagnostic, str]]]:
    """The text with the chosen fixes applied, and the fixes left out with the reason (`Baseline.refusal`):
    all together when the result is proven, else one by one, each kept only when it is proven."""
    baseline = Baseline(text, notebook, path)
    candidate = _apply(text, notebook, [d.fix for d in chosen])  # type: ignore[misc]
    if not baseline.refusal(candidate):
        return candidate, []
    kept: list[Fix] = []
    refusals: list[tuple[Diagnostic, str]] = []
    for diagnostic in chosen:
        attempt = _apply(text, notebook, [*kept, diagnostic.fix])  # type: ignore[list-item]
        why = baseline.refusal(attempt)
        if why:
            refusals.append((diagnostic, why))
        else:
            kept.append(diagnostic.fix)  # type: ignore[arg-type]
    return _apply(text, notebook, kept), refusals


# --- applying edits ----------------------------------------------------------------------------
def _apply(text: str, notebook: bool, fixes: Sequence[Fix]) -> str:
    edits = [e for fix in fixes for e in fix.edits]
    if not notebook:
        return _apply_to_text(text, [e for e in edits if e.cell == 0])
    nb = notebook_json(text)
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
    """``nb`` as JSON in the layout of ``original``: its indentation, separators (compact JSON stays compact),
    escaping, byte order mark and final newline."""
    bom = BOM if original.startswith(BOM) else ""
    body = original[len(bom):]
    m = re.match(r"\{\s*?\n([ \t]+)\"", body)
    indent: int | str | None = None
    if m:
        indent = len(m.group(1)) if set(m.group(1)) == {" "} else m.group(1)
    ensure_ascii = body.isascii() and "\\u" in body
    text = json.dumps(nb, indent=indent, ensure_ascii=ensure_ascii, separators=_separators(body, indent is not None))
    return bom + (text + "\n" if body.endswith("\n") else text)


_JSON_PUNCTUATION = re.compile(r'"(?:[^"\\]|\\.)*"|([,:])( *)')


def _separators(text: str, indented: bool) -> tuple[str, str]:
    """(item separator, key separator) as ``text`` writes them: ``(", ", ": ")`` for ``{"a": 1, "b": 2}``,
    ``(",", ":")`` for compact JSON, ``(",", ": ")`` for indented JSON (the new line is the indent's); json's
    own where the text has none."""
    found: dict[str, str] = {}
    for m in _JSON_PUNCTUATION.finditer(text):
        if m.group(1) and m.group(1) not in found:
            found[m.group(1)] = m.group(1) + m.group(2)
            if len(found) == 2:
                break
    return found.get(",", "," if indented else ", "), found.get(":", ": ")


def _cell_sources(text: str) -> dict[int, str]:
    nb = notebook_json(text)
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
