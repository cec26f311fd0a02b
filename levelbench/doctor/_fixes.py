"""Fixes that several rules build: a clock pair's statements (`pair`, which LB104's and LB105's fixes
rewrite and LB112's wraps), a statement's place among cell magics, and the text of a `jax.vmap` rewrite.

A rule's own fix is in its module (`levelbench.doctor.rules`); each returns a `Fix`, or None when the fix
cannot be made safely here (a position that cannot be trusted, a name that is taken, a string that indenting
would change, a cell magic that nothing can be inserted before); the finding then keeps its fix as text only.
Whether a fix is applied by ``--fix`` or only by ``--unsafe-fixes`` is the rule's ``fix_safety`` in the
catalogue."""

from __future__ import annotations

import ast
import itertools
import re

from ._context import Context
from ._program import MAGIC_MARKER
from ._regions import CLOCKS, TimedRegion, clock_read
from ._syntax import short


def vmap_fix(comprehension: ast.AST) -> str:
    """The fix, as text, of a comprehension of JAX operations: one `jax.vmap` call (LB106, LB114)."""
    generator = comprehension.generators[0]
    element = short(comprehension.elt if hasattr(comprehension, "elt") else comprehension.value, 50)
    target = short(generator.target, 20)
    return (
        f"jax.vmap(lambda {target}: {element})({short(generator.iter, 30)})  # one batched operation, "
        "under jax.jit with the code around it"
    )


CELL_MAGIC_LINE = re.compile(r"^\s*(#\s?)?%%")


def statement_of(ctx: Context, node: ast.AST) -> ast.stmt | None:
    """The statement holding ``node``; for a timing magic, the marker block standing for its line."""
    found: ast.stmt | None = node if isinstance(node, ast.stmt) else None
    for ancestor in ctx.program.ancestors(node):
        if is_marker(ancestor):
            return ancestor  # type: ignore[return-value]
        if found is None and isinstance(ancestor, ast.stmt):
            found = ancestor
    return found


def is_marker(node: ast.AST) -> bool:
    """Whether ``node`` is the block that stands for a timing magic's line (see `_program.MAGIC_MARKER`)."""
    if not isinstance(node, ast.With) or not node.items:
        return False
    expr = node.items[0].context_expr
    return isinstance(expr, ast.Call) and isinstance(expr.func, ast.Name) and expr.func.id == MAGIC_MARKER


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
    """The statements of ``region``'s clock pair, or None when it is not one (or they are not in one block)."""
    clock = region.clock_node
    start_stmt = ctx.program.parent(clock) if clock is not None else None
    while isinstance(start_stmt, ast.BinOp) and clock_read(start_stmt) is clock:  # `t = time.time_ns() / 1000`
        start_stmt = ctx.program.parent(start_stmt)
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
                left = clock_read(node.left)
                if _is_clock(ctx, left):
                    return Pair(block, i, j, node, left, None)  # type: ignore[arg-type]
                if isinstance(left, ast.Name) and end_assignment is not None and assigned_name(end_assignment) == left.id:
                    return Pair(block, i, j, node, clock_read(end_assignment.value), end_assignment)  # type: ignore[arg-type]
                return None
        if _is_clock_assignment(ctx, stmt):
            if assigned_name(stmt) == var:  # type: ignore[arg-type]
                return None
            if end_assignment is None:
                end_assignment, end_index = stmt, j  # type: ignore[assignment]
    if end_assignment is not None:  # the difference is left out of the snippet
        return Pair(block, i, end_index, None, clock_read(end_assignment.value), end_assignment)  # type: ignore[arg-type]
    return None


def _is_clock_assignment(ctx: Context, stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.Assign) and _is_clock(ctx, clock_read(stmt.value))


def _is_clock(ctx: Context, node: ast.AST) -> bool:
    return isinstance(node, ast.Call) and not node.args and ctx.names.qualname(node.func) in CLOCKS


def assigned_name(stmt: ast.Assign) -> str | None:
    target = stmt.targets[0] if len(stmt.targets) == 1 else None
    return target.id if isinstance(target, ast.Name) else None
