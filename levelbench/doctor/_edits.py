"""Fixes as source edits: where a node is in what the user wrote, and the text to put there.

A `Fix` is a few `Edit`s, each one span of a cell (or of the whole file, cell 0) replaced by new
text; an insertion is an empty span. Spans are in the user's coordinates (the cell's own lines,
character columns), so the fixer edits the text as written, keeping its formatting and comments:
nothing is regenerated from the syntax tree. Every span is checked before a fix is offered: the
text there must parse to the node the check saw (a position IPython's transformer moved, or a
statement anchored at its magic, gives no fix rather than a wrong one).

!!! Example
    ``%timeit lambda: f(x)`` -> ``Edit(cell=5, line=2, column=8, end_line=2, end_column=16, text="")``
    deletes ``lambda: `` and leaves ``%timeit f(x)``.
"""

from __future__ import annotations

import ast
import dataclasses
import functools
import io
import re
import sys
import textwrap
import tokenize
from collections.abc import Callable, Iterable
from typing import TypeVar

from ._diagnostic import Edit, Fix
from ._names import Names
from ._program import Program, Segment, char_column

_INDENT = re.compile(r"[ \t]*")


_Builder = TypeVar("_Builder", bound=Callable[..., "Fix | None"])


def never_hides_the_finding(build: _Builder) -> _Builder:
    """A fix builder that fails gives no fix: the finding is still reported (with its fix as text)."""

    @functools.wraps(build)
    def guarded(*args: object, **kwargs: object) -> Fix | None:
        try:
            return build(*args, **kwargs)
        except Exception:  # a bug in a fix must not hide the finding, which is still reported with its fix as text
            return None

    return guarded  # type: ignore[return-value]


def as_fix(edits: Iterable[Edit | None] | None, description: str) -> Fix | None:
    if edits is None:
        return None
    found = tuple(edits)
    if not found or any(e is None for e in found):
        return None
    return Fix(tuple(e for e in found if e is not None), sys.intern(description))


class Editor:
    """Turns the nodes of one `Program` into edits of the text the user wrote."""

    def __init__(self, program: Program, names: Names) -> None:
        self.program = program
        self.names = names

    # --- positions ---------------------------------------------------------------------------
    def _segment(self, line: int) -> Segment:
        return self.program.segment_of(line)

    def user_line(self, line: int) -> tuple[int, int]:
        """(cell, line as the user numbers it) for virtual ``line``."""
        segment = self._segment(line)
        return segment.cell, (line - segment.first_line + 1 if segment.cell else line)

    def point(self, line: int, byte_column: int) -> tuple[int, int, int]:
        """(cell, line, character column) of a virtual line and an ast byte offset."""
        cell, user = self.user_line(line)
        return cell, user, char_column(self.program.line_text(line), byte_column)

    def source(self, node: ast.AST) -> str | None:
        """The text of ``node`` as the user wrote it, or None when its position cannot be trusted."""
        span = self._span(node)
        if span is None:
            return None
        return self._text(*span)

    def _span(self, node: ast.AST) -> tuple[int, int, int, int] | None:
        """(virtual line, char column, virtual end line, char end column) of ``node``, verified."""
        line, end_line = getattr(node, "lineno", None), getattr(node, "end_lineno", None)
        col, end_col = getattr(node, "col_offset", None), getattr(node, "end_col_offset", None)
        if None in (line, end_line, col, end_col) or self._segment(line) is not self._segment(end_line):
            return None
        start = self.point(line, col)[2]
        end = self.point(end_line, end_col)[2]
        span = (line, start, end_line, end)
        text = self._text(*span)
        return span if text is not None and _same_node(text, node, start) else None

    def _text(self, line: int, col: int, end_line: int, end_col: int) -> str | None:
        lines = [self.program.line_text(n) for n in range(line, end_line + 1)]
        if not lines:
            return None
        if len(lines) == 1:
            return lines[0][col:end_col]
        return "\n".join([lines[0][col:], *lines[1:-1], lines[-1][:end_col]])

    def edit(self, line: int, col: int, end_line: int, end_col: int, text: str) -> Edit:
        """An edit from virtual positions with character columns."""
        cell, user = self.user_line(line)
        _, user_end = self.user_line(end_line)
        return Edit(cell, user, col, user_end, end_col, sys.intern(text))  # one copy of a text repeated by many fixes

    # --- edits of nodes ----------------------------------------------------------------------
    def replace(self, node: ast.AST, text: str) -> Edit | None:
        span = self._span(node)
        return None if span is None else self.edit(*span, text)

    def wrap(self, node: ast.AST, before: str, after: str) -> tuple[Edit, Edit] | None:
        """``before`` + node + ``after``, as two insertions (the node's own text stays untouched)."""
        span = self._span(node)
        if span is None:
            return None
        line, col, end_line, end_col = span
        return self.edit(line, col, line, col, before), self.edit(end_line, end_col, end_line, end_col, after)

    def delete_between(self, node: ast.AST, inner: ast.AST, pattern: str) -> Edit | None:
        """Delete from the start of ``node`` to the start of ``inner`` when that text matches ``pattern``."""
        outer, within = self._span(node), self._span(inner)
        if outer is None or within is None or outer[0] != within[0]:
            return None
        text = self.program.line_text(outer[0])[outer[1]:within[1]]
        if not re.fullmatch(pattern, text):
            return None
        return self.edit(outer[0], outer[1], within[0], within[1], "")

    # --- whole lines -------------------------------------------------------------------------
    def indentation(self, line: int) -> str:
        m = _INDENT.match(self.program.line_text(line))
        return m.group(0) if m else ""

    def starts_line(self, node: ast.AST) -> bool:
        """Only whitespace comes before ``node`` on its line (it is not after a ``;``)."""
        line = getattr(node, "lineno", 0)
        column = self.point(line, getattr(node, "col_offset", 0))[2]
        return not self.program.line_text(line)[:column].strip()

    def insert_lines_before(self, line: int, text: str, indent: str | None = None) -> Edit:
        """New lines before virtual ``line``, at its indentation (or ``indent``)."""
        prefix = self.indentation(line) if indent is None else indent
        body = "".join(f"{prefix}{row}\n" if row else "\n" for row in text.split("\n"))
        return self.edit(line, 0, line, 0, body)

    def insert_lines_after(self, line: int, text: str, indent: str) -> Edit:
        """New lines after virtual ``line`` (the last line of its cell included)."""
        body = "\n".join(f"{indent}{row}" if row else "" for row in text.split("\n"))
        segment = self._segment(line)
        last = line == segment.first_line + len(segment.lines) - 1
        if last:
            end = len(self.program.line_text(line))
            return self.edit(line, end, line, end, "\n" + body)
        return self.edit(line + 1, 0, line + 1, 0, body + "\n")

    def indent_lines(self, first: int, last: int, by: str) -> tuple[Edit, ...] | None:
        """Indent virtual lines ``first``..``last`` by ``by``; None when a string spans lines there
        (indenting would change its value) or the lines cross cells."""
        if self._segment(first) is not self._segment(last):
            return None
        lines = [self.program.line_text(n) for n in range(first, last + 1)]
        if _multiline_string(lines):
            return None
        return tuple(self.edit(n, 0, n, 0, by) for n, text in zip(range(first, last + 1), lines) if text.strip())

    # --- imports -----------------------------------------------------------------------------
    @functools.cached_property
    def _top_level_imports(self) -> list[ast.Import]:
        return [s for s in self.program.module.body if isinstance(s, ast.Import)]

    def module_name(self, module: str, before: tuple[int, int] | None = None) -> str | None:
        """The name a top-level ``import`` binds to ``module`` (before ``before``, when given)."""
        for stmt in self._top_level_imports:
            if before is not None and (stmt.lineno, stmt.col_offset) > before:
                continue
            for alias in stmt.names:
                if alias.asname and alias.name == module:
                    return alias.asname
                if not alias.asname and (alias.name == module or alias.name.startswith(module + ".")) and "." not in module:
                    return module
        return None

    def import_point(self) -> tuple[int, bool] | None:
        """Where new imports go: (virtual line, after it?) -- after the file's leading imports (and its
        docstring, ``from __future__``, ``!pip install`` lines), else before its first statement."""
        body = self.program.module.body
        last: ast.stmt | None = None
        for index, stmt in enumerate(body):
            docstring = index == 0 and isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant) and isinstance(
                stmt.value.value, str
            )
            if docstring or isinstance(stmt, (ast.Import, ast.ImportFrom)) or _ipython_call(stmt):
                last = stmt
                continue
            break
        if last is not None:
            return (last.end_lineno or last.lineno, True)
        if not body:
            return None
        first = body[0]
        return (first.lineno, False) if self.starts_line(first) and not self.indentation(first.lineno) else None

    def add_lines_at_top(self, text: str) -> Edit | None:
        """``text`` (statements) as new top-level lines where imports go."""
        point = self.import_point()
        if point is None:
            return None
        line, after = point
        return self.insert_lines_after(line, text, "") if after else self.insert_lines_before(line, text, "")

    def import_for(self, module: str, at: ast.AST) -> tuple[str, str] | None:
        """(name to use for ``module`` at ``at``, an ``import`` line to add, or ""); None when the module's
        name is taken by something else."""
        name = self.module_name(module, (getattr(at, "lineno", 0), getattr(at, "col_offset", 0)))
        if name is not None:
            return name, ""
        if not self.names.free_for(module, module):
            return None
        return module, f"import {module}"


def with_imports(editor: Editor, imports: list[str], *edits: Edit | None) -> tuple[Edit, ...] | None:
    """``edits`` plus one insertion of the ``imports`` lines needed (None if any edit is missing)."""
    if any(e is None for e in edits):
        return None
    needed = [line for line in dict.fromkeys(imports) if line]
    if not needed:
        return tuple(e for e in edits if e is not None)
    top = editor.add_lines_at_top("\n".join(needed))
    if top is None:
        return None
    rest = [e for e in edits if e is not None]
    for k, e in enumerate(rest):  # an insertion at the same point: one edit, the imports first
        if e.start == top.start and e.start == e.end and top.start == top.end:
            rest[k] = dataclasses.replace(e, text=top.text + e.text)
            return tuple(rest)
    return (top, *rest)


def _ipython_call(stmt: ast.stmt) -> bool:
    """``get_ipython().system(...)`` and friends: ``!pip install``, ``%matplotlib inline``."""
    value = stmt.value if isinstance(stmt, ast.Expr) else None
    return (
        isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute)
        and isinstance(value.func.value, ast.Call) and isinstance(value.func.value.func, ast.Name)
        and value.func.value.func.id == "get_ipython"
    )


def parses_to(text: str, expr: ast.expr) -> bool:
    """The expression ``text`` (it may span lines) is the code of ``expr``, positions aside."""
    parsed = _parsed(text, None)
    return parsed is not None and _same_tree(parsed, expr)


def _same_node(text: str, node: ast.AST, column: int) -> bool:
    """``text`` (found at ``column``) parses to ``node``: the position is right."""
    if isinstance(node, ast.alias):
        return text.split()[0] == node.name if text.strip() else False
    parse = _parsed if len(text) <= 1000 else _parsed.__wrapped__  # a long text is not kept
    if isinstance(node, ast.expr):
        parsed = parse(text, None)
    elif isinstance(node, ast.stmt):
        parsed = parse(text, column)
    else:
        return False
    return parsed is not None and _same_tree(parsed, node)


@functools.lru_cache(maxsize=1024)
def _parsed(text: str, column: int | None) -> ast.AST | None:
    """The expression ``text`` (``column`` None) or the one statement ``text`` found at ``column``; None when it
    is not that. Kept for the texts seen last: a long file checks the same few texts (``time.time()``,
    ``f(x)``) at thousands of places."""
    try:
        if column is None:
            return ast.parse(f"(\n{text}\n)", mode="eval").body
        module = ast.parse(textwrap.dedent(" " * column + text))
    except (SyntaxError, ValueError, RecursionError):
        return None
    return module.body[0] if len(module.body) == 1 else None


def _same_tree(a: object, b: object) -> bool:
    """Whether two syntax trees are the same code, positions aside (what equal ``ast.dump``s say, without
    writing the dumps: this is asked once for every fix's every edit)."""
    if a.__class__ is not b.__class__:
        return False
    if isinstance(a, ast.AST):
        return all(_same_tree(getattr(a, f, None), getattr(b, f, None)) for f in a._fields)
    if a.__class__ is list:
        return len(a) == len(b) and all(map(_same_tree, a, b))  # type: ignore[arg-type]
    if a.__class__ in (float, complex):
        return repr(a) == repr(b)  # as the dumps compare them: NaN is NaN, -0.0 is not 0.0
    return a == b


def _multiline_string(lines: list[str]) -> bool:
    """A string literal in ``lines`` spans more than one line (or the lines do not tokenize)."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return True
    string_types = {tokenize.STRING, getattr(tokenize, "FSTRING_START", -1)}
    return any(t.type in string_types and t.start[0] != t.end[0] for t in tokens) or any(
        t.type == getattr(tokenize, "FSTRING_START", -1) and _fstring_spans(tokens, t) for t in tokens
    )


def _fstring_spans(tokens: list[tokenize.TokenInfo], start: tokenize.TokenInfo) -> bool:
    end_type = getattr(tokenize, "FSTRING_END", -1)
    for token in tokens:
        if token.type == end_type and token.start >= start.start:
            return token.end[0] != start.start[0]
    return True
