"""Fixes of clock pairs: LB104 (one sample -> repeated runs after a warm-up) and LB105 (the wall clock ->
``time.perf_counter``); `pair` finds a pair's statements, which LB112's fix also wraps.

    start = time.time()                          y = f(x)
    y = f(x)                           LB104 ->  elapsed = min(timeit.repeat(lambda: f(x), number=1, repeat=5))
    print(time.time() - start)                   print(elapsed)
"""

from __future__ import annotations

import ast
import itertools

from ._context import Context
from ._diagnostic import Edit, Fix
from ._edits import as_fix, never_hides_the_finding, parses_to, with_imports
from ._regions import CLOCKS, TimedRegion
from ._suppress import is_file_pragma
from ._syntax import FUNCTIONS, SCOPES, short

class Pair:
    """A clock pair as statements: ``var = clock()`` ... the statement with ``clock() - var`` (or
    ``end = clock()`` ... ``end - var``)."""

    def __init__(self, block: list[ast.stmt], start: int, end: int, subtraction: ast.BinOp | None,
                 end_clock: ast.Call | None, end_assignment: ast.Assign | None) -> None:
        self.block = block
        self.start = start
        self.end = end
        self.subtraction = subtraction
        self.end_clock = end_clock
        self.end_assignment = end_assignment


def pair(ctx: Context, region: TimedRegion) -> Pair | None:
    clock = region.clock_node
    start_stmt = ctx.program.parent(clock) if clock is not None else None
    if not isinstance(start_stmt, ast.Assign) or not isinstance(start_stmt.targets[0], ast.Name):
        return None
    found = ctx.program.statement_list(start_stmt)
    if found is None:
        return None
    block, i = found
    var = start_stmt.targets[0].id
    end_assignment: ast.Assign | None = None
    end_index = scanned = i + 1
    # Only the statements that mention `var` can end the pair; the end clock is the first clock
    # assignment before the one that does.
    for j in itertools.chain(ctx.program.statements_mentioning(block, i, var), [len(block)]):
        if end_assignment is None:
            end_index = next((k for k in range(scanned, j) if _is_clock_assignment(ctx, block[k])), j)
            end_assignment = block[end_index] if end_index < j else None  # type: ignore[assignment]
        scanned = j
        if j == len(block):
            break
        stmt = block[j]
        for node in ctx.program.walk(stmt):
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Sub) and isinstance(node.right, ast.Name) \
                    and node.right.id == var:
                left = node.left
                if _is_clock(ctx, left):
                    return Pair(block, i, j, node, left, None)  # type: ignore[arg-type]
                if isinstance(left, ast.Name) and end_assignment is not None and _assigned(end_assignment) == left.id:
                    return Pair(block, i, j, node, end_assignment.value, end_assignment)  # type: ignore[arg-type]
                return None
        if _is_clock_assignment(ctx, stmt):
            if _assigned(stmt) == var:  # type: ignore[arg-type]
                return None
            if end_assignment is None:
                end_assignment, end_index = stmt, j  # type: ignore[assignment]
    if end_assignment is not None:  # the difference is left out of the snippet
        return Pair(block, i, end_index, None, end_assignment.value, end_assignment)  # type: ignore[arg-type]
    return None


def _is_clock_assignment(ctx: Context, stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Assign) and _is_clock(ctx, stmt.value)


def _is_clock(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and not node.args and ctx.names.qualname(node.func) in CLOCKS


def _assigned(stmt: ast.Assign) -> str | None:
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    return target.id if isinstance(target, ast.Name) else None


# --- LB104 -------------------------------------------------------------------------------------
@never_hides_the_finding
def repeat_timing(ctx: Context, region: TimedRegion) -> Fix | None:
    """One clock pair around one statement -> the statement stays as the warm-up, and the timing is the
    best of 5 runs by ``timeit.repeat`` (or ``levelbench.measure``'s median when levelbench is imported)."""
    found = pair(ctx, region)
    if found is None or found.subtraction is None or region.before_clock or len(region.statements) != 1:
        return None
    block, editor = found.block, ctx.editor
    work = region.statements[0]
    if work is not block[found.start + 1]:
        return None
    expr = _timed_work(ctx, work)
    if expr is None:
        return None
    start_stmt = block[found.start]
    if found.end_assignment is None and found.end != found.start + 2:
        return None
    if found.end_assignment is not None and found.end_assignment is not block[found.start + 2]:
        return None
    var = _assigned(start_stmt)  # type: ignore[arg-type]
    uses = [found.subtraction.right] + ([found.subtraction.left] if found.end_assignment is not None else [])
    if _read_elsewhere(ctx, start_stmt, var, uses) or (
        found.end_assignment is not None and _read_elsewhere(ctx, found.end_assignment, _assigned(found.end_assignment), uses)
    ):
        return None
    text = editor.source(expr)
    if text is None or not _a_lambda_returns(text, expr) or not all(editor.starts_line(s) for s in (start_stmt, work)):
        return None
    elapsed = _fresh_name(ctx, "elapsed")
    levelbench = editor.module_name("levelbench", (start_stmt.lineno, 0))
    imports: list[str] = []
    if levelbench is not None:
        timing, note = f"{elapsed} = {levelbench}.measure(lambda: {text}).median", "# warm-up, repeats, median"
    else:
        imported = editor.import_for("timeit", start_stmt)
        if imported is None:
            return None
        name, line = imported
        imports.append(line)
        timing = f"{elapsed} = min({name}.repeat(lambda: {text}, number=1, repeat=5))"
        note = "# best of 5, warmed up above"
    delete_start = _delete_lines(ctx, start_stmt)
    if delete_start is None:
        return None
    indent = editor.indentation(work.lineno)
    if found.end_assignment is not None:
        # The user's comment on the end clock's line stays where it was, at the end of the line that
        # replaces the clock; the fix's own note gives way to it.
        commented = _trailing_comment(ctx, found.end_assignment)
        timed = editor.replace(found.end_assignment, timing if commented else f"{timing}  {note}")
    else:
        timed = editor.insert_lines_after(work.end_lineno or work.lineno, f"{timing}  {note}", indent)
    difference = editor.replace(found.subtraction, elapsed)
    return as_fix(
        with_imports(editor, imports, delete_start, timed, difference),
        f"time `{short(expr)}` over repeated runs after a warm-up",
    )


def _timed_work(ctx: Context, work: ast.stmt) -> ast.expr | None:
    """The expression the repeated timing runs again: the value of an expression statement, or of an
    assignment to one name, attribute or subscript, when that value is a call or an operator (``f(x)``,
    ``a @ b``, ``-x``). None for every other form, which keeps its finding without a fix: a tuple
    (``lambda: f(x), f(x)`` is a tuple holding a lambda), a lambda (``lambda: lambda: f(x)`` times the making
    of a function), a constant or a name (no work to repeat), several targets, an unpacking, an augmented
    or annotated assignment (the value is not all the statement does), ``await``/``yield`` (a lambda
    cannot hold them), and a class body (a lambda there cannot see the class's names)."""
    if isinstance(work, ast.Expr):
        value = work.value
    elif (
        isinstance(work, ast.Assign) and len(work.targets) == 1
        and isinstance(work.targets[0], (ast.Name, ast.Attribute, ast.Subscript))
    ):
        value = work.value
    else:
        return None
    if not isinstance(value, (ast.Call, ast.BinOp, ast.UnaryOp)):
        return None
    if any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(value)):
        return None
    scope = next((a for a in ctx.program.ancestors(work) if isinstance(a, SCOPES)), None)
    return None if isinstance(scope, ast.ClassDef) else value


def _a_lambda_returns(text: str, expr: ast.expr) -> bool:
    """``lambda: <text>`` is a lambda whose body is ``expr``, nothing more (the text may span lines)."""
    return parses_to(f"lambda: {text}", ast.Lambda(args=_NO_ARGUMENTS, body=expr))


_NO_ARGUMENTS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)


def _trailing_comment(ctx: Context, stmt: ast.stmt) -> bool:
    """A comment follows ``stmt`` on its last line."""
    end_line = stmt.end_lineno or stmt.lineno
    end_col = ctx.editor.point(end_line, stmt.end_col_offset or 0)[2]
    return ctx.program.line_text(end_line)[end_col:].strip().startswith("#")


def _read_elsewhere(ctx: Context, assignment: ast.stmt, var: str | None, allowed: list[ast.AST]) -> bool:
    """``var`` (bound by ``assignment``) is read somewhere other than ``allowed`` before it is bound again.

    Only the uses after ``assignment`` up to the next binding are looked at, so that a file of many
    clock pairs costs time in proportion to its length (walking the scope for each pair did not).
    """
    if var is None:
        return True
    scope = _scope_of(ctx, assignment)
    span = ctx.program.tree.span(scope)
    if span is None:
        return True
    first, end = span
    scope_end = (getattr(scope, "end_lineno", None) or 10**9, getattr(scope, "end_col_offset", None) or 0)
    for i, node in ctx.program.tree.name_uses(var).after((assignment.lineno, assignment.col_offset)):
        if (node.lineno, node.col_offset) > scope_end:
            break
        if not first <= i < end:
            continue
        if isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node.ctx, ast.Load) and all(node is not a for a in allowed):
            return True
    return False


def _scope_of(ctx: Context, node: ast.AST) -> ast.AST:
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return ancestor
    return ctx.program.module


def _fresh_name(ctx: Context, base: str) -> str:
    used = ctx.used_names
    if base not in used:
        return base
    return next(f"{base}_{k}" for k in range(2, 1000) if f"{base}_{k}" not in used)


def _delete_lines(ctx: Context, stmt: ast.stmt) -> Edit | None:
    """Delete the whole lines of ``stmt`` (nothing else may be on them but a comment, which stays, on a
    line of its own at the statement's indentation: ``t0 = time.time()  # noqa`` -> ``# noqa``)."""
    editor = ctx.editor
    end_line = stmt.end_lineno or stmt.lineno
    end_col = editor.point(end_line, stmt.end_col_offset or 0)[2]
    after = ctx.program.line_text(end_line)[end_col:]
    rest = after.strip()
    if rest and (not rest.startswith("#") or is_file_pragma(rest)):
        return None  # code after it; or a pragma that, on a line of its own, would silence the whole file
    if rest:
        start_col = editor.point(stmt.lineno, stmt.col_offset)[2]
        return editor.edit(stmt.lineno, start_col, end_line, end_col + after.index("#"), "")
    segment = ctx.program.segment_of(stmt.lineno)
    if end_line < segment.first_line + len(segment.lines) - 1:
        return editor.edit(stmt.lineno, 0, end_line + 1, 0, "")
    return editor.edit(stmt.lineno, 0, end_line, len(ctx.program.line_text(end_line)), "")


# --- LB105 -------------------------------------------------------------------------------------
@never_hides_the_finding
def steady_clock(ctx: Context, region: TimedRegion) -> Fix | None:
    """``time.time()`` -> ``time.perf_counter()`` at both ends of the pair (``_ns`` kept)."""
    found = pair(ctx, region)
    if found is None or found.end_clock is None or region.clock_node is None:
        return None
    edits: list[Edit | None] = []
    for clock in (region.clock_node, found.end_clock):
        func = clock.func  # type: ignore[attr-defined]
        qualified = ctx.names.qualname(func)
        if qualified not in ("time.time", "time.time_ns") or not isinstance(func, ast.Attribute):
            return None
        owner = ctx.editor.source(func.value)
        if owner is None:
            return None
        suffix = "_ns" if qualified.endswith("_ns") else ""
        edits.append(ctx.editor.replace(func, f"{owner}.perf_counter{suffix}"))
    return as_fix(edits, "time with the steady, high-resolution clock time.perf_counter()")


