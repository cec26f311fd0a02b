"""Running the doctor on inputs: which process checks what. A directory's files in batches, shared among
processes by size; a script too long to hold one syntax tree of, checked in parts (each read with the file's
head and imports, and margins), the parts shared among processes. Each piece is checked by
`_engine.diagnose_now`; what a script's findings are never depends on how many processes there were."""

from __future__ import annotations

import array
import ast
import bisect
import dataclasses
import functools
import gc
import os
import re
import time
from collections.abc import Callable, Iterable, Iterator
from typing import Any, TypeVar

from .._values.cores import usable_cores
from .._values import arguments
from .._values.findings import Severity
from .._values.gc import gc_paused
from ._config import ConfigChoice, FileSettings, Options, Settings
from ._diagnostic import Diagnostic, DoctorReport
from ._engine import diagnose_now, selected_codes, unreadable
from ._ipython_input import StatementStarts
from ._load import DEFAULT_MAX_BYTES, SourceText, Unreadable, iter_inputs
from ._parts import map_parts
from ._program import split_lines

_Result = TypeVar("_Result")
_Packed = TypeVar("_Packed")


def lint_source(
    source: str,
    path: str = "<string>",
    *,
    notebook: bool | None = None,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    jobs: int | None = None,
    edits: bool = True,
) -> tuple[Diagnostic, ...]:
    """Diagnose one script (or notebook JSON, when ``notebook`` or ``path`` ends in ``.ipynb``).

    !!! Example
        ```python
        >>> [d.code for d in lint_source("import time\\nt0 = time.time()\\n", "bench.py")]
        []
        ```
    """
    check_jobs("lint_source", jobs)
    is_notebook = path.endswith(".ipynb") if notebook is None else notebook
    return diagnose(SourceText(path, source, is_notebook), selected_codes(select, ignore), jobs=jobs, edits=edits)


def lint_paths(
    paths: Iterable[str | os.PathLike[str]],
    *,
    select: Iterable[str] | None = None,
    ignore: Iterable[str] | None = None,
    exclude: Iterable[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    stdin_name: str = "<stdin>",
    fail_on: str | Severity | None = None,
    config: ConfigChoice = False,
    jobs: int | None = None,
    edits: bool = True,
) -> DoctorReport:
    """Diagnose files, notebooks and directories (``-`` reads standard input).

    Unreadable inputs (missing, binary, too large, broken notebooks, syntax errors) are LB100
    diagnostics, one per file; the other inputs are still checked.

    ``config``: False (the default) reads no configuration file; True finds, for each file, the
    nearest ``pyproject.toml`` above it with a ``[tool.levelbench.doctor]`` table, as the command
    line does; a path uses that file for every input. ``select``, ``ignore``, ``fail_on`` and
    ``exclude`` override it as the command-line options do (see `levelbench.doctor._config`).

    ``jobs``: processes that share the work: the parts of a script too long to check in one piece (over
    ``PART_LINES + HEAD_LINES`` lines), and the other files when there are enough of them (`SHARED_BYTES`);
    None (the default) is one per usable core. The findings are the same for any ``jobs``. ``edits``: False leaves
    each diagnostic's `Diagnostic.fix` None (`levelbench doctor` does when it does not fix: building the edits
    is a quarter of the time on a file with thousands of findings); the fix as text is kept.

    Raises:
        ConfigError: a configuration file that cannot be used (the message says where and why).
    """
    check_jobs("lint_paths", jobs)
    settings = Settings(Options.of(select, ignore, fail_on, exclude, config))
    processes = usable_cores() if jobs is None else jobs
    checked = map_inputs(
        iter_configured(paths, settings, max_bytes=max_bytes, stdin_name=stdin_name),
        here=lambda source, codes: diagnose(source, codes, jobs=processes, edits=edits),
        task=_diagnose_file,
        shared=edits,
        unpack=lambda source, packed: tuple(Diagnostic.unpacked(source.path, p) for p in packed),
        processes=processes,
    )
    diagnostics: list[Diagnostic] = []
    for item, applied, found in checked:
        if found is not None:
            diagnostics.extend(found)
        elif "LB100" in applied.codes:
            diagnostics.append(unreadable(item.path, item.message))  # type: ignore[union-attr]
    return settings.report(tuple(diagnostics), tuple(item.path for item, _, _ in checked))


def _diagnose_file(edits: bool, item: tuple[SourceText, frozenset[str]]) -> list[tuple]:
    """One short file's diagnostics, packed (a task of `map_inputs`)."""
    source, codes = item
    return [d.packed() for d in diagnose(source, codes, jobs=1, edits=edits)]


def map_inputs(
    inputs: Iterable[tuple[SourceText | Unreadable, FileSettings]],
    *,
    here: Callable[[SourceText, frozenset[str]], _Result],
    task: Callable[[Any, tuple[SourceText, frozenset[str]]], _Packed],
    shared: Any,
    unpack: Callable[[SourceText, _Packed], _Result],
    processes: int,
) -> list[tuple[SourceText | Unreadable, FileSettings, _Result | None]]:
    """Each input, its settings and what checking it gave (None for an unreadable one), in order.

    A long script is checked here (``here``, which shares its parts among the processes itself). The other
    files are gathered in batches of about BATCH_BYTES of source (a large tree's text is not all held at once),
    and a batch of SHARED_BYTES or more is shared among ``processes`` by size (`map_parts`): ``task(shared,
    (text, rules))`` in whichever process, its result small to pickle, made whole here by ``unpack``. A smaller
    batch is checked here with ``here``, file by file, for up to SHARE_AFTER_SECONDS, and what is left of it
    then is shared."""
    checked: list[tuple[SourceText | Unreadable, FileSettings, _Result | None]] = []
    batch: list[int] = []  # short files not yet checked: their places in `checked`
    batch_bytes = 0

    def check_batch() -> None:
        items = [(checked[i][0], checked[i][1].codes) for i in batch]
        results: list[_Result] = []
        started, large = time.perf_counter(), sum(len(source.text) for source, _ in items) >= SHARED_BYTES
        while len(results) < len(items) and (
            processes == 1 or not large and time.perf_counter() - started < SHARE_AFTER_SECONDS
        ):
            results.append(here(*items[len(results)]))  # type: ignore[arg-type]
        rest = items[len(results) :]
        if rest:  # shared among the processes, by size
            packed = map_parts(task, shared, rest, processes, weights=[len(source.text) for source, _ in rest])
            results.extend(unpack(source, r) for (source, _), r in zip(rest, packed))  # type: ignore[arg-type]
        for i, result in zip(batch, results):
            checked[i] = (*checked[i][:2], result)

    for item, applied in inputs:
        checked.append((item, applied, None))
        if isinstance(item, Unreadable):
            continue
        if _long(item):
            checked[-1] = (item, applied, here(item, applied.codes))
            continue
        batch.append(len(checked) - 1)
        batch_bytes += len(item.text)
        if batch_bytes >= BATCH_BYTES:
            check_batch()
            batch, batch_bytes = [], 0
    if batch:
        check_batch()
    return checked


def iter_configured(
    paths: Iterable[str | os.PathLike[str]], settings: Settings, *, max_bytes: int, stdin_name: str
) -> Iterator[tuple[SourceText | Unreadable, FileSettings]]:
    """Every input with the settings that apply to it; inputs the configuration excludes are left out."""
    for item in iter_inputs(paths, exclude=settings.options.exclude, max_bytes=max_bytes, stdin_name=stdin_name):
        applied = settings.for_file(item.path)
        if not applied.excluded:
            yield item, applied


def check_jobs(function: str, jobs: object) -> None:
    """``jobs`` of the public ``function``: None or a whole number of processes >= 1, else a clear error."""
    arguments.number(function, "jobs", jobs, "a number of processes >= 1 (or None)", low=1, integer=True, optional=True)


# A syntax tree takes ~200 bytes of memory per byte of source: a script longer than PART_LINES + HEAD_LINES
# is checked in parts (at top-level statements), so that a 10 MB file needs a few hundred MB, not 2-3 GB.
# Each part is read after the file's first HEAD_LINES (imports, definitions, warm-ups) and imports.
# A script of under 4 * PART_LINES lines gets shorter parts (down to MIN_PART_LINES), so that it has enough to
# share among processes; not fewer for fewer processes: what a script's findings are never depends on `jobs`.
# Each part also reads at least MARGIN_LINES of the lines before and after it (reporting only on its own), so
# that a clock pair or a warm-up cut by a part's edge is seen whole.
PART_LINES = 10_000
HEAD_LINES = 1_000
MIN_PART_LINES = 5_000
MARGIN_LINES = 100
# The other files (a directory's) are shared among processes file by file, in batches of about BATCH_BYTES of
# source (a large tree's text is not all held at once). A batch of SHARED_BYTES or more is shared from the start;
# a smaller one is checked here, and what is left of it after SHARE_AFTER_SECONDS is shared. Starting a worker
# takes ~0.3 s of CPU, and how long a file takes depends on what it holds more than on its size (500 kB: 0.2 s
# of library code, 1 s to check benchmark scripts, 13 s to fix them).
SHARED_BYTES = 1_000_000
SHARE_AFTER_SECONDS = 0.5
BATCH_BYTES = 25_000_000
_IMPORT_LINES = re.compile(r"^(?:import|from)[^\S\n][^\n]*", re.MULTILINE)


def diagnose(
    source: SourceText, codes: frozenset[str], *, jobs: int | None = None, edits: bool = True
) -> tuple[Diagnostic, ...]:
    """The diagnostics of one readable input for the rule ``codes``, suppressions applied, in order.

    ``jobs``: processes that check a long script's parts at once (None: one per usable core); ``edits``: whether
    diagnostics get their fix's edits."""
    long = _long(source)
    # Paused for all parts of a long script, not only within each: the collections that ran between parts
    # walked all the findings kept so far (see `_diagnose_in_parts`).
    with gc_paused():
        if long:
            return _diagnose_in_parts(_Parts(source, codes, edits), usable_cores() if jobs is None else jobs)
        return diagnose_now(source, codes, edits)


def _long(source: SourceText) -> bool:
    """Whether ``source`` is a script checked in parts."""
    return not source.notebook and "# %%" not in source.text and _line_count(source.text) > PART_LINES + HEAD_LINES


def _line_count(text: str) -> int:
    """``len(split_lines(text))``, without making the lines."""
    return text.count("\n") + text.count("\r") - text.count("\r\n") + 1


def _diagnose_in_parts(script: _Parts, jobs: int) -> tuple[Diagnostic, ...]:
    """A long script, part by part, the parts shared among ``jobs`` processes. Each part keeps the file's line
    numbers (so positions and fixes are the file's): the head of the file, the part and its margins, the imports
    between them, blank lines elsewhere. A definition past the head and its use in a later part (beyond the
    margin) are not connected."""
    # The lines as strings only while the parts are chosen: a 10 MB script's are 30 MB not to hold meanwhile.
    starts = StatementStarts(split_lines(script.source.text))
    head = _parsing_head(starts, starts.parts(HEAD_LINES, definitions=True, first_only=True)[0][1])
    size = min(PART_LINES, max(MIN_PART_LINES, (len(starts.lines) - head) // 4 + 1))  # the same parts for any `jobs`
    parts = [(0, head), *starts.parts(size, definitions=True, start=head)]
    script.head = head
    script.cuts = [a for a, _ in starts.parts(MARGIN_LINES, start=head)]
    del starts
    checked = map_parts(_diagnose_part, script, parts, jobs)
    found: list[list[Diagnostic]] = [[] for _ in parts]  # the parts' lines do not overlap: nor do their findings
    i = 0
    while i < len(parts):
        split_inside, packed = checked[i]
        if split_inside and len(parts) > 1:  # split inside a string or bracket: join with the next (the last part
            a = i if i + 1 < len(parts) else i - 1  # with the one before), and check the two again as one
            parts[a : a + 2] = [(parts[a][0], parts[a + 1][1])]
            checked[a : a + 2] = [_diagnose_part(script, parts[a])]
            found[a : a + 2] = [[]]
            i = a
            continue
        found[i] = [Diagnostic.unpacked(script.source.path, p) for p in packed]
        checked[i] = (False, [])  # the packed copy, no longer needed
        i += 1
    # Each part's findings come sorted, and the parts' lines follow each other: already in order.
    return tuple(d for part in found for d in part)


def _parsing_head(starts: StatementStarts, head: int) -> int:
    """``head``, or the first later cut that parses when the head does not: every part is read after the head,
    so a head cut inside a string (the splitter guesses strings from quote counts) would make every part fail.
    A head that parses at no cut within PART_LINES (or 4 x HEAD_LINES) more lines has an error of its own: ``head`` then."""
    lines, end = starts.lines, head
    while end < min(len(lines), head + max(PART_LINES, 4 * HEAD_LINES)):
        try:
            ast.parse("\n".join(lines[:end]))
            return end
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            end = starts.parts(max(HEAD_LINES // 10, 1), first_only=True, start=end)[0][1]
    return head


class _Parts:
    """A long script to check in parts: what a worker process needs of it (the text, once) and what each
    part derives from it. Lines are found by their offsets in the text, not kept as strings."""

    def __init__(self, source: SourceText, codes: frozenset[str], edits: bool) -> None:
        self.source = source
        self.codes = codes
        self.edits = edits
        self.head = 0  # the head's last line, once chosen
        self.cuts: list[int] = []  # statement starts after the head, MARGIN_LINES or more apart: margins' edges

    def __getstate__(self) -> dict[str, object]:  # not the cached text, offsets and imports: made again there
        return {"source": self.source, "codes": self.codes, "edits": self.edits, "head": self.head, "cuts": self.cuts}

    @functools.cached_property
    def _text(self) -> str:
        """The text with its line ends made ``\\n`` (as `split_lines` reads them); the text itself if they are."""
        return self.source.text.replace("\r\n", "\n").replace("\r", "\n")

    @functools.cached_property
    def _starts(self) -> array.array:
        """Where each line starts in `_text`, and one past the end (as if the text ended with a newline)."""
        text = self._text
        starts = array.array("q", [0])
        find, append = text.find, starts.append
        end = find("\n")
        while end >= 0:
            append(end + 1)
            end = find("\n", end + 1)
        append(len(text) + 1)
        return starts

    def _lines(self, first: int, last: int) -> str:
        """Lines ``[first, last)`` joined by newlines, as one slice of the text."""
        return self._text[self._starts[first] : self._starts[last] - 1]

    @functools.cached_property
    def imports(self) -> list[tuple[int, str]]:
        """(line, text) of each one-line ``import``/``from`` statement at the start of a line."""
        starts, found = self._starts, []
        for match in _IMPORT_LINES.finditer(self._text):
            if "(" not in match[0]:
                found.append((bisect.bisect_right(starts, match.start()) - 1, match[0]))
        return found

    def text(self, first: int, last: int, *, margins: bool = True) -> str:
        """The text a part is checked in: lines ``[first, last)`` with their margins (the head and the imports
        before them; blank lines elsewhere, so that line numbers are the file's)."""
        head = self.head
        lead, tail = self._margins(first, last) if margins else (first, last)
        if first <= head:
            return self._lines(0, tail)
        # Written as runs of newlines, not as a list of blank lines joined: a part near the end of a 10 MB file
        # would join hundreds of thousands of them (a tenth of the doctor's time on such a file).
        pieces = [self._lines(0, head)]
        shown = head  # lines written so far
        for k, line in self.imports:
            if k >= lead:
                break
            if k >= head:
                pieces += ("\n" * (k - shown + 1), line)
                shown = k + 1
        pieces += ("\n" * (lead - shown + 1), self._lines(lead, tail))
        return "".join(pieces)

    def _margins(self, first: int, last: int) -> tuple[int, int]:
        """The statement starts at least MARGIN_LINES before ``first`` and after ``last`` (the head, the end)."""
        cuts = self.cuts
        before = bisect.bisect_right(cuts, first - MARGIN_LINES) - 1
        after = bisect.bisect_left(cuts, last + MARGIN_LINES)
        lead = max(self.head, cuts[before]) if before >= 0 else self.head
        return min(lead, first), max(cuts[after] if after < len(cuts) else len(self._starts) - 1, last)


def _diagnose_part(script: _Parts, part: tuple[int, int]) -> tuple[bool, list[tuple]]:
    """Whether the part does not parse (a split inside a string or bracket), and its findings, packed: those on
    its own lines (the head's are the first part's), and an unreadable file's LB100 for the first part."""
    first, last = part
    for margins in (True, False):  # a margin cut inside a string: the part alone, before joining it with the next
        with gc_paused():
            text = dataclasses.replace(script.source, text=script.text(first, last, margins=margins))
            diagnostics = diagnose_now(text, script.codes, script.edits)
            # A part is freed by reference counting, but for the reference cycles it leaves: collected here, in
            # the youngest generation only, which holds just this part's objects.
            gc.collect(0)
        split_inside = any(d.code == "LB100" and d.message.startswith("syntax error") for d in diagnostics)
        if not split_inside:
            break
    own = [
        d.packed() for d in diagnostics
        if first < d.location.line <= last or (d.code == "LB100" and d.location.line == 1 and first == 0)
    ]
    return split_inside, own


