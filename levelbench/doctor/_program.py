"""A script or a whole notebook as one Python syntax tree, with positions that map back to cells.

Cells of a notebook share one namespace, so the doctor analyses them as one module: the cells'
trees are concatenated, each cell owning a range of "virtual" line numbers. Timing magics become
ordinary statements wrapped in a marker ``with`` block, so every check sees what ``%timeit f(x)``
runs, in program order:

    with __levelbench_magic__('timeit'):
        f(x)
"""

from __future__ import annotations

import ast
import bisect
import dataclasses
import re
from collections.abc import Callable, Iterator, Sequence

from ._diagnostic import Location
from ._ipython_input import split_timeit_options, to_python, to_python_mapped
from ._notebook import CodeCell
from ._tree import TreeIndex

MAGIC_MARKER = "__levelbench_magic__"
_TIMING_MAGICS = frozenset({"time", "timeit"})
_CODE_MAGICS = _TIMING_MAGICS | {"capture"}  # cell magics whose body is ordinary Python run in the namespace


@dataclasses.dataclass(frozen=True)
class Segment:
    """The lines of one cell (or of a whole file, ``cell == 0``), starting at virtual line ``first_line``."""

    cell: int
    first_line: int
    lines: tuple[str, ...]


@dataclasses.dataclass(frozen=True)
class Magic:
    """A timing magic, as the doctor needs to know it."""

    name: str  # "time", "timeit" or "capture"
    number_given: bool  # %timeit -n N: no calibration runs
    once: bool = False  # %timeit -n1 -r1: a single run
    output: bool = False  # %timeit -o: returns its result (`res = %timeit -o ...`, or `_` read in the next cell)
    repeats: int | None = None  # %timeit -r R, when given
    bound: str | None = None  # the name `res = %timeit -o ...` binds


@dataclasses.dataclass(frozen=True)
class ParseProblem:
    line: int  # virtual line
    column: int  # 1-based, characters
    message: str


def split_lines(text: str) -> list[str]:
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


class Program:
    """The syntax tree of one file or notebook, and how to locate its nodes in what the user wrote."""

    def __init__(
        self,
        path: str,
        module: ast.Module,
        segments: Sequence[Segment],
        problems: Sequence[ParseProblem] = (),
        magics: dict[ast.AST, Magic] | None = None,
        notebook: bool = False,
        transcript: bool = False,
    ) -> None:
        self.path = path
        self.module = module
        self.segments = tuple(segments)
        self.problems = tuple(problems)
        self.notebook = notebook
        # A pasted console session read as the code typed (`console_lines`): its lines are not the file's, so
        # no fix may be written back into it.
        self.transcript = transcript
        self.prompt_widths: dict[int, int] = {}  # a transcript's columns: the prompt each line lost, by line
        self._magics = magics or {}
        self._starts = [s.first_line for s in self.segments]
        self.tree = TreeIndex(module)
        self.nodes = self.tree.nodes
        self.text = "\n".join(line for segment in self.segments for line in segment.lines)
        self._blocks: dict[int, dict[int, int]] = {}  # id(statement list) -> {id(statement): index}
        self._block_spans: dict[int, tuple[list[int], list[int]] | None] = {}  # id(statement list) -> firsts, ends
        self.enclosing_functions: dict[ast.AST, ast.AST | None] = {}  # node -> its innermost def or lambda, as asked

    @classmethod
    def from_python(cls, path: str, text: str) -> Program:
        """A plain Python file (exported notebooks' ``get_ipython()`` magic calls are understood too).

        A file that holds IPython syntax (``%timeit``, ``%%time``, ``!pip``), an ``.ipy`` file, and a
        Jupytext percent script with commented magics (``# %timeit``) are read as IPython instead:
        see `from_ipython_script`.
        """
        lines = split_lines(text)
        if path.endswith(".ipy") or ("%%" in text and _commented_magics(lines)):
            return cls.from_ipython_script(path, lines)
        segment = Segment(cell=0, first_line=1, lines=tuple(lines))
        builder = _Builder(lambda line: _line_of([segment], line), use_ipython=False)
        try:
            tree = ast.parse("\n".join(lines), filename=path)
        except SyntaxError as e:
            if _has_ipython_syntax(lines):
                return cls.from_ipython_script(path, lines)
            session = _console(lines)
            if session is not None:  # not Python as it stands, but a pasted session: read what was typed
                return cls._transcript(path, *session, e)
            problem = ParseProblem(e.lineno or 1, max(e.offset or 1, 1), f"syntax error: {e.msg}")
            return cls(path, ast.Module(body=[], type_ignores=[]), [segment], [problem])
        if "get_ipython" in text:  # an exported notebook: magics are calls
            tree = builder.splice(tree)
        return cls(path, tree, [segment], builder.problems, builder.magics)

    @classmethod
    def _transcript(cls, path: str, typed: list[str], widths: dict[int, int], error: SyntaxError) -> Program:
        """A console session's typed code, read as IPython input when it has magics, else as Python; where it
        does not parse either, the original file's syntax error stands."""
        if _has_ipython_syntax(typed):
            program = cls.from_ipython_script(path, typed)
        else:
            program = cls.from_python(path, "\n".join(typed))
        if any(p.message.startswith("syntax error") for p in program.problems) and not program.module.body:
            segment = Segment(cell=0, first_line=1, lines=tuple(typed))
            problem = ParseProblem(error.lineno or 1, max(error.offset or 1, 1), f"syntax error: {error.msg}")
            return cls(path, ast.Module(body=[], type_ignores=[]), [segment], [problem])
        program.transcript = True
        program.prompt_widths = widths
        return program

    @classmethod
    def from_ipython_script(cls, path: str, lines: Sequence[str]) -> Program:
        """A script written for IPython, read cell by cell through IPython's transformer.

        Cells end at Jupytext ``# %%`` markers and before a ``%%cell_magic`` line (which can only
        start a cell); each is parsed as a notebook cell would be, and findings keep the file's own
        line numbers. A cell that is not Python even for IPython is an LB100 at its error; the other
        cells are still checked.
        """
        segments = [Segment(cell=0, first_line=first, lines=tuple(part)) for first, part in _script_cells(lines)]
        starts = [s.first_line for s in segments]
        builder = _Builder(lambda line: _line_of(segments, line, starts), use_ipython=True)
        percent = any(_PERCENT_MARKER.match(line) for line in lines)
        body: list[ast.stmt] = []
        for segment in segments:
            source = [_uncomment_magic(line) if percent else line for line in segment.lines]
            tree = builder.parse_ipython("\n".join(source), base=segment.first_line - 1)
            if tree is not None:
                body.extend(tree.body)
        module = ast.Module(body=body, type_ignores=[])
        return cls(path, module, segments, builder.problems, builder.magics)

    @classmethod
    def from_notebook(cls, path: str, cells: Sequence[CodeCell], *, use_ipython: bool = True) -> Program:
        """All code cells of a notebook, in order, as one module."""
        segments: list[Segment] = []
        first = 1
        for cell in cells:
            lines = split_lines(cell.source)
            segments.append(Segment(cell=cell.number, first_line=first, lines=tuple(lines)))
            first += len(lines)
        starts = [s.first_line for s in segments]
        builder = _Builder(lambda line: _line_of(segments, line, starts), use_ipython=use_ipython)
        body: list[ast.stmt] = []
        widths: dict[int, int] = {}  # a pasted session's cells: the prompt each line lost, by virtual line
        for index, segment in enumerate(segments):
            tree = builder.parse_ipython("\n".join(segment.lines), base=segment.first_line - 1)
            if tree is None:
                tree = cls._session_cell(builder, segments, index, widths)
            if tree is not None:
                body.extend(tree.body)
        module = ast.Module(body=body, type_ignores=[])
        program = cls(path, module, segments, builder.problems, builder.magics, notebook=True)
        if widths:  # as for a pasted session in a file (`_transcript`): no fix is written into those lines
            program.transcript = True
            program.prompt_widths = widths
        return program

    @staticmethod
    def _session_cell(builder: _Builder, segments: list[Segment], index: int, widths: dict[int, int]) -> ast.Module | None:
        """A cell that is not Python as it stands but a pasted console session (``In [1]: import jax``, ``...:``):
        read the code typed, as a file holding one is read (`console_lines`), its lines keeping their numbers.
        Where the typed code does not parse either, the cell's own syntax error stands."""
        segment = segments[index]
        session = _console(segment.lines)
        if session is None:
            return None
        typed, cell_widths = session
        problem = builder.problems.pop()
        segments[index] = Segment(cell=segment.cell, first_line=segment.first_line, lines=tuple(typed))
        tree = builder.parse_ipython("\n".join(typed), base=segment.first_line - 1)
        if tree is None:
            builder.problems.pop()
            builder.problems.append(problem)
            segments[index] = segment
            return None
        widths.update({segment.first_line - 1 + number: width for number, width in cell_widths.items()})
        return tree

    # --- positions -------------------------------------------------------------------------
    def segment_of(self, line: int) -> Segment:
        index = max(bisect.bisect_right(self._starts, line) - 1, 0)
        return self.segments[index]

    def line_text(self, line: int) -> str:
        return _line_of(self.segments, line, self._starts)

    def location(self, node: ast.AST, end: ast.AST | None = None) -> Location:
        """Where ``node`` (through ``end``, when given) is, as the user numbers cells, lines and columns."""
        line = getattr(node, "lineno", 1)
        col = getattr(node, "col_offset", 0)
        last = end if end is not None else node
        end_line = getattr(last, "end_lineno", None) or line
        end_col = getattr(last, "end_col_offset", None)
        segment = self.segment_of(line)
        if self.segment_of(end_line) is not segment:  # never span cells
            end_line, end_col = line, None
        first_text = self.line_text(line)
        start_chars = char_column(first_text, col)
        if end_col is None:
            end_line, end_chars = line, len(first_text)
        else:
            end_chars = char_column(self.line_text(end_line), end_col)
        offset = segment.first_line - 1 if segment.cell else 0  # a script's cells keep its own line numbers
        # One int object for a line number used twice: a report of a long file keeps hundreds of thousands.
        user_line = line - offset if offset else line
        if self.prompt_widths:  # columns in the file as pasted, prompts included
            start_chars += self.prompt_widths.get(line, 0)
            end_chars += self.prompt_widths.get(end_line, 0)
        return Location(
            path=self.path,
            cell=segment.cell,
            line=user_line,
            column=start_chars + 1,
            end_line=user_line if end_line == line else end_line - offset,
            end_column=max(end_chars + 1, start_chars + 2) if end_line == line else end_chars + 1,
        )

    def problem_location(self, problem: ParseProblem) -> Location:
        segment = self.segment_of(problem.line)
        line = problem.line - segment.first_line + 1 if segment.cell else problem.line
        return Location(self.path, segment.cell, line, problem.column, line, problem.column + 1)

    # --- tree navigation (see `_tree`) ------------------------------------------------------
    def parent(self, node: ast.AST) -> ast.AST | None:
        return self.tree.parent(node)

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        return self.tree.ancestors(node)

    def of_type(self, *types: type) -> list[ast.AST]:
        """Every node of these (concrete) types, in program order."""
        return self.tree.of_type(*types)

    def walk(self, node: ast.AST, *, skip: tuple[type, ...] = ()) -> Iterator[ast.AST]:
        """``node`` and everything below it in program order; ``skip`` nodes below it are yielded, not entered."""
        return self.tree.walk(node, skip=skip)

    def statement_list(self, stmt: ast.AST) -> tuple[list[ast.stmt], int] | None:
        """The statement list (a module, function, loop or branch body, ``else``, ``finally``) that holds
        ``stmt``, and its index there; None for an expression. Indexed once per list: looking each statement
        up by scanning its list made a long module quadratic."""
        parent = self.parent(stmt)
        for field in ("body", "orelse", "finalbody"):
            value = getattr(parent, field, None)
            if not isinstance(value, list):
                continue
            where = self._blocks.get(id(value))
            if where is None:
                where = self._blocks[id(value)] = {id(s): k for k, s in enumerate(value)}
            k = where.get(id(stmt))
            if k is not None:
                return value, k
        return None

    def statements_mentioning(self, block: list[ast.stmt], i: int, name: str) -> Iterator[int]:
        """Indices ``j > i``, in order, of the statements of ``block`` that hold an ``ast.Name`` ``name``.

        Found from the name's uses (each a bisection), not by walking the statements in between: a clock
        started and never read must not cost a walk of the rest of a long module.
        """
        spans = self._block_spans.get(id(block), ())
        if spans == ():
            found = [self.tree.span(s) for s in block]
            spans = None if any(f is None for f in found) else ([f[0] for f in found], [f[1] for f in found])  # type: ignore[index]
            self._block_spans[id(block)] = spans
        if spans is None:  # statements made up by a check: every one is a candidate
            yield from range(i + 1, len(block))
            return
        if i + 1 >= len(block):
            return
        firsts, ends = spans
        uses = self.tree.name_uses(name).preorder
        k = bisect.bisect_left(uses, firsts[i + 1])
        while k < len(uses):
            j = bisect.bisect_right(firsts, uses[k]) - 1
            if uses[k] >= ends[j]:
                return  # past the block
            yield j
            k = bisect.bisect_left(uses, ends[j], k)

    def magic(self, node: ast.AST) -> Magic | None:
        """The timing magic that ``node`` (a marker ``with``) stands for, if any."""
        return self._magics.get(node)



_PERCENT_MARKER = re.compile(r"^\s*#\s*%%(\s|$)")
# Jupytext comments magics out in percent scripts: `# %timeit f(x)` is the magic `%timeit f(x)`.
_COMMENTED_MAGIC = re.compile(r"^(?P<indent>\s*)#\s?(?P<magic>%%?(?:time|timeit|capture)\b.*)$")
_IPYTHON_LINE = re.compile(r"^\s*(?:%{1,2}[A-Za-z_]|!\S|[\w.]+\s*=\s*[%!][A-Za-z_]|[\w.]+\?{1,2}\s*$)")


_PROMPT = re.compile(r"^(?:In \[\d+\]: ?|>>> ?|>>>$)")
_CONTINUATION = re.compile(r"^(?:\s*\.\.\.+: ?|\.\.\. ?|\.\.\.$)")


def console_lines(lines: Sequence[str]) -> list[str] | None:
    """A pasted console session (IPython's ``In [n]:`` and ``...:``, the Python prompt's ``>>>`` and ``...``)
    as the code that was typed: prompts stripped, what the session printed blanked, comments and blank
    lines kept, so every line keeps its number. None when no line starts with a prompt."""
    session = _console(lines)
    return session[0] if session is not None else None


def _console(lines: Sequence[str]) -> tuple[list[str], dict[int, int]] | None:
    """`console_lines`, and the width of the prompt taken off each line (by line number, from 1)."""
    if not any(_PROMPT.match(line) for line in lines):
        return None
    typed: list[str] = []
    widths: dict[int, int] = {}
    in_session = False
    for number, line in enumerate(lines, 1):
        prompt = _PROMPT.match(line) or (_CONTINUATION.match(line) if in_session else None)
        if prompt:
            typed.append(line[prompt.end():])
            widths[number] = prompt.end()
            in_session = True
        elif not line.strip() or line.lstrip().startswith("#"):
            typed.append(line)
        else:
            typed.append("" if in_session else line)  # after a prompt: output (Out[3]: ..., a repr)
    return typed, widths


def _has_ipython_syntax(lines: Sequence[str]) -> bool:
    """Some line is a magic, a shell escape or a help request: IPython input, not plain Python."""
    return any(_IPYTHON_LINE.match(line) for line in lines)


def _commented_magics(lines: Sequence[str]) -> bool:
    """A Jupytext percent script whose magics are commented out."""
    return any(_PERCENT_MARKER.match(line) for line in lines) and any(_COMMENTED_MAGIC.match(line) for line in lines)


def _uncomment_magic(line: str) -> str:
    m = _COMMENTED_MAGIC.match(line)
    return f"{m['indent']}{m['magic']}" if m else line


def uncommented_magics(text: str) -> str:
    """``text`` with the magics of a Jupytext percent script uncommented, as the doctor reads them: there
    ``# %timeit f(x)`` is code, not a comment (other text is returned as it is)."""
    if "%%" not in text:
        return text
    lines = text.split("\n")
    if not any(_PERCENT_MARKER.match(line) for line in lines):
        return text
    return "\n".join(_uncomment_magic(line) for line in lines)


def _script_cells(lines: Sequence[str]) -> list[tuple[int, list[str]]]:
    """(first file line, lines) of each cell of an IPython script; a ``# %%`` marker is a cell of its own."""
    cells: list[tuple[int, list[str]]] = []
    current: list[str] = []
    first = 1
    for number, line in enumerate(lines, 1):
        marker = bool(_PERCENT_MARKER.match(line))
        if (marker or line.startswith("%%")) and current:
            cells.append((first, current))
            current, first = [], number
        current.append(line)
        if marker:
            cells.append((first, current))
            current, first = [], number + 1
    if current or not cells:
        cells.append((first, current))
    return cells

def _line_of(segments: Sequence[Segment], line: int, starts: Sequence[int] | None = None) -> str:
    """The text of virtual ``line``; pass the segments' ``starts`` when asking often (many cells)."""
    if starts is None:
        starts = [s.first_line for s in segments]
    index = bisect.bisect_right(starts, line) - 1
    if index < 0:
        return ""
    segment = segments[index]
    k = line - segment.first_line
    return segment.lines[k] if 0 <= k < len(segment.lines) else ""


def char_column(text: str, byte_offset: int) -> int:
    """A character column from an ast byte offset (the two differ after non-ASCII text)."""
    if text.isascii():
        return min(byte_offset, len(text))
    return min(len(text.encode("utf-8")[:byte_offset].decode("utf-8", errors="ignore")), len(text))


def _bytes(text: str, char_offset: int) -> int:
    return len(text[:char_offset].encode("utf-8"))


def _shift(
    tree: ast.AST,
    *,
    line_of: dict[int, int] | None = None,
    base: int = 0,
    anchor: tuple[int, int] | None = None,
    col: int = 0,
) -> None:
    """Move every node of ``tree``: map lines, add ``base``, shift line 1 by ``col`` bytes, or pin at ``anchor``."""
    last_line = max(line_of.values(), default=1) if line_of else 1
    for node in ast.walk(tree):
        if not hasattr(node, "lineno"):
            continue
        if anchor is not None:
            node.lineno, node.col_offset = anchor
            node.end_lineno, node.end_col_offset = anchor[0], anchor[1] + 1
            continue
        for attr, col_attr in (("lineno", "col_offset"), ("end_lineno", "end_col_offset")):
            value = getattr(node, attr, None)
            if value is None:
                continue
            if col and value == 1:
                setattr(node, col_attr, getattr(node, col_attr) + col)
            if line_of is not None:
                value = line_of.get(value, last_line)
            setattr(node, attr, value + base)


class _Builder:
    """Parses IPython cells and splices timing magics into the tree as marker ``with`` blocks."""

    def __init__(self, line_text: Callable[[int], str], *, use_ipython: bool) -> None:
        self._line_text = line_text
        self._use_ipython = use_ipython
        self.problems: list[ParseProblem] = []
        self.magics: dict[ast.AST, Magic] = {}

    def parse_ipython(self, text: str, *, base: int) -> ast.Module | None:
        """Parse IPython input whose first line is virtual line ``base + 1``."""
        tree: ast.Module | None = None
        python, mapping, parted = to_python_mapped(text, use_ipython=self._use_ipython)
        try:
            tree = ast.parse(python)
        except SyntaxError as e:
            error = e
            if parted:  # transformed in parts: read it again in one piece, as IPython does, for its error
                python, mapping, _ = to_python_mapped(text, use_ipython=self._use_ipython, whole=True)
                try:
                    tree = ast.parse(python)
                except SyntaxError as again:
                    error = again
        line_of = {j + 1: mapping[j] + 1 for j in range(len(mapping))}
        if tree is None:
            line = line_of.get(error.lineno or 1, 1) + base
            self.problems.append(ParseProblem(line, max(error.offset or 1, 1), f"syntax error: {error.msg}"))
            return None
        _shift(tree, line_of=line_of, base=base)
        return self.splice(tree) if "get_ipython" in python else tree

    def splice(self, tree: ast.Module) -> ast.Module:
        return _Splicer(self).visit(tree)

    def line_statements(self, text: str, line: int, where: str, fallback_col: int) -> list[ast.stmt] | None:
        """Parse ``text``, the argument of a line magic found on virtual ``line``."""
        text = text.strip()
        if not text:
            return []
        source = self._line_text(line)
        index = source.find(text)
        col = _bytes(source, index) if index >= 0 else fallback_col
        try:
            tree = ast.parse(text)
        except SyntaxError as e:
            column = (index if index >= 0 else 0) + (e.offset or 1)
            self.problems.append(ParseProblem(line, column, f"syntax error in the statement of {where}: {e.msg}"))
            return None
        if index >= 0:
            _shift(tree, base=line - 1, col=col)
        else:
            _shift(tree, anchor=(line, fallback_col))
        return tree.body

    def cell_statements(self, body: str, line: int, anchor: tuple[int, int], where: str) -> list[ast.stmt] | None:
        """Parse the body of a cell magic whose ``%%`` line is virtual ``line``."""
        if self._line_text(line).lstrip().startswith("%%"):  # a notebook cell: the body follows, line for line
            tree = self.parse_ipython(body.rstrip("\n"), base=line)
            return None if tree is None else tree.body
        try:  # an exported script: the body is a string literal on one line
            tree = ast.parse(to_python(body, use_ipython=self._use_ipython))
        except SyntaxError as e:
            self.problems.append(ParseProblem(line, anchor[1] + 1, f"syntax error in the body of {where}: {e.msg}"))
            return None
        _shift(tree, anchor=anchor)
        return self.splice(tree).body


class _Splicer(ast.NodeTransformer):
    def __init__(self, builder: _Builder) -> None:
        self._b = builder

    def visit_Expr(self, node: ast.Expr) -> ast.AST | list[ast.stmt]:
        return self._splice(node, node.value)

    def visit_Assign(self, node: ast.Assign) -> ast.AST | list[ast.stmt]:
        return self._splice(node, node.value)

    def _splice(self, stmt: ast.stmt, value: ast.expr) -> ast.AST | list[ast.stmt]:
        magic = _magic_call(value)
        if magic is not None and magic[0] == "line" and magic[1] in _LEVELBENCH_MAGICS:
            return self._levelbench_magic(stmt, magic[1], magic[2])
        if magic is None or magic[1] not in _CODE_MAGICS:
            return self.generic_visit(stmt)
        kind, name, line_arg, body = magic
        where = f"%{'%' if kind == 'cell' else ''}{name}"
        options = split_timeit_options(line_arg) if name == "timeit" else None
        setup: list[ast.stmt] = []
        if kind == "line":
            statement = options.statement if options else line_arg
            timed = self._b.line_statements(statement, stmt.lineno, where, stmt.col_offset)
        else:
            anchor = (value.lineno, value.col_offset)
            timed = self._b.cell_statements(body or "", stmt.lineno, anchor, where)
            if options is not None and options.statement.strip():  # %%timeit's line holds setup code
                setup = self._b.line_statements(options.statement, stmt.lineno, where, stmt.col_offset) or []
        if timed is None:
            return stmt
        marker = ast.Call(func=ast.Name(id=MAGIC_MARKER, ctx=ast.Load()), args=[ast.Constant(name)], keywords=[])
        block = ast.With(items=[ast.withitem(context_expr=marker)], body=timed or [ast.Pass()])
        for node in (marker, marker.func, marker.args[0], block):
            ast.copy_location(node, stmt)
        ast.fix_missing_locations(block)
        bound = stmt.targets[0].id if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name) else None
        self._b.magics[block] = Magic(
            name=name, number_given=bool(options and options.number_given), once=bool(options and options.once),
            output=bool(options and options.output), repeats=options.repeats if options else None, bound=bound,
        )
        return [*setup, block]


    def _levelbench_magic(self, stmt: ast.stmt, name: str, line_arg: str) -> list[ast.stmt]:
        """``%lbtime f(x)``, ``%lbtimeit -v f(x)``, ``%lbcompare a=f(x) b=g(x)``: levelbench times these itself
        (blocked, warmed, interleaved), so they are no timed region of the user's; but the code they run
        runs here, as if called in the cell (what it calls is not a library function whose callers decide)."""
        ran: list[ast.stmt] = []
        for expression in _magic_expressions(name, line_arg):
            parsed = self._b.line_statements(expression, stmt.lineno, f"%{name}", stmt.col_offset)
            ran.extend(parsed or [])
        return [*ran, stmt]


# levelbench's own line magics: the statements they time are code that runs in the cell.
_LEVELBENCH_MAGICS = frozenset({"lbtime", "lbtimeit", "lbcompare"})
_LABELLED = re.compile(r"(?:^|\s)([A-Za-z_][\w.-]*)=(?!=)")


def _magic_expressions(name: str, line_arg: str) -> list[str]:
    """The Python a levelbench magic's line runs: its options dropped (the first token from which the rest
    parses), and for ``%lbcompare`` each ``name=expression`` candidate's expression."""
    tokens = line_arg.split()
    rest = ""
    for i, token in enumerate(tokens):
        candidate = " ".join(tokens[i:])
        if token.startswith("-"):
            continue
        if name == "lbcompare" and _LABELLED.match(" " + candidate):
            rest = candidate
            break
        try:
            body = ast.parse(candidate).body
        except SyntaxError:
            continue
        if len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            continue  # an option's value (`--budget 1`), not code
        rest = candidate
        break
    if name != "lbcompare" or not rest:
        return [rest] if rest else []
    starts = list(_LABELLED.finditer(" " + rest))
    out = []
    for m, following in zip(starts, [*starts[1:], None]):
        text = (" " + rest)[m.end():following.start() if following else None].strip()
        try:
            ast.parse(text)
        except SyntaxError:
            continue  # a space inside the expression cut it wrong: leave it out rather than misread it
        out.append(text)
    return out


def _magic_call(value: ast.expr) -> tuple[str, str, str, str | None] | None:
    """``get_ipython().run_line_magic('timeit', 'f(x)')`` -> ("line", "timeit", "f(x)", None)."""
    if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)):
        return None
    owner = value.func.value
    if not (isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "get_ipython"):
        return None
    args = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str) else None for a in value.args]
    if value.func.attr == "run_line_magic" and len(args) >= 2 and args[0] and args[1] is not None:
        return ("line", args[0], args[1], None)
    if value.func.attr == "run_cell_magic" and len(args) >= 3 and args[0] and None not in args[1:3]:
        return ("cell", args[0], args[1] or "", args[2])
    return None
