"""The fix for a Python loop under jit, written with the user's own names: the loop as ``lax.scan``.

    for x in X:                                  def step(carry, x):
        y, h = cell.apply(p, x, h)      ->           h = carry
        ys.append(y)                                 y, h = cell.apply(p, x, h)
                                                     return h, y
                                                 h, ys = jax.lax.scan(step, h, X)

Loop-carried names (read before they are written in the body) become the carry; appended values
become the stacked outputs. A shape to start from, not a proof of equivalence.
"""

from __future__ import annotations

import ast

from ._names import Names
from ._syntax import bound_names


def loop_rewrite(loop: ast.For | ast.AsyncFor | ast.While, names: Names, *, flax: bool) -> str:
    """Source text showing ``loop`` rewritten as ``jax.lax.scan`` / ``fori_loop`` / ``while_loop``."""
    if isinstance(loop, ast.While):
        carry = _pack(_carried(loop.body, set()))
        text = (
            f"def cond(carry):\n    {_unpack(carry)}\n    return {ast.unparse(loop.test)}\n"
            f"def body(carry):\n    {_unpack(carry)}\n{_body(loop.body, set())}\n    return {carry}\n"
            f"{carry} = jax.lax.while_loop(cond, body, {carry})"
        )
        return _with_flax_note(text, flax)
    target = ast.unparse(loop.target)
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    carried = _carried(loop.body, bound)
    outputs = _appended(loop.body)
    carry = _pack(carried)
    range_args = _range_args(loop.iter, names)
    if range_args is not None and not outputs:
        start, stop = range_args
        text = (
            f"def body({target}, carry):\n    {_unpack(carry)}\n{_body(loop.body, set())}\n    return {carry}\n"
            f"{carry} = jax.lax.fori_loop({start}, {stop}, body, {carry})"
        )
        return _with_flax_note(text, flax)
    xs = f"jnp.arange({range_args[0]}, {range_args[1]})" if range_args is not None else ast.unparse(loop.iter)
    ys_values = ", ".join(value for _, value in outputs) or "None"
    ys_names = ", ".join(name for name, _ in outputs) or "_"
    if len(outputs) > 1:
        ys_values, ys_names = f"({ys_values})", f"({ys_names})"
    step_arg = target if isinstance(loop.target, ast.Name) else "xs_t"
    unpack_x = "" if isinstance(loop.target, ast.Name) else f"    {target} = xs_t\n"
    text = (
        f"def step(carry, {step_arg}):\n    {_unpack(carry)}\n{unpack_x}{_body(loop.body, {n for n, _ in outputs})}\n"
        f"    return {carry}, {ys_values}\n"
        f"{carry}, {ys_names} = jax.lax.scan(step, {carry}, {xs})"
    )
    return _with_flax_note(text, flax)


def _with_flax_note(text: str, flax: bool) -> str:
    if not flax:
        return text
    return text + "\n# or let Flax scan the cell: flax.linen.RNN(cell) / flax.linen.scan over the module"


def _carried(body: list[ast.stmt], exclude: set[str]) -> list[str]:
    """Names the body reads before writing them, and writes: the loop-carried state, in first-use order."""
    stored: set[str] = set()
    read_first: dict[str, None] = {}
    for stmt in body:
        for name in _loads(stmt):
            if name not in stored:
                read_first.setdefault(name)
        stored.update(bound_names(stmt))
    return [n for n in read_first if n in stored and n not in exclude]


def _loads(stmt: ast.stmt) -> list[str]:
    """Names ``stmt`` reads, an assignment's value before its target (the order Python evaluates them)."""
    if isinstance(stmt, ast.AugAssign):
        return [*_loaded(stmt.value), *(n.id for n in ast.walk(stmt.target) if isinstance(n, ast.Name))]
    if isinstance(stmt, (ast.Assign, ast.AnnAssign)) and stmt.value is not None:
        return _loaded(stmt.value)
    return _loaded(stmt)


def _loaded(node: ast.AST) -> list[str]:
    return [n.id for n in ast.walk(node) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)]


def _appended(body: list[ast.stmt]) -> list[tuple[str, str]]:
    """``ys.append(y)`` statements as (list name, appended value)."""
    found = []
    for stmt in body:
        call = stmt.value if isinstance(stmt, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute) and call.func.attr == "append":
            if isinstance(call.func.value, ast.Name) and len(call.args) == 1:
                found.append((call.func.value.id, ast.unparse(call.args[0])))
    return found


def _body(body: list[ast.stmt], drop_appends_to: set[str]) -> str:
    lines = []
    for stmt in body:
        appended = _appended([stmt]) if drop_appends_to else []
        if appended and appended[0][0] in drop_appends_to:
            continue
        lines.extend("    " + line for line in ast.unparse(stmt).splitlines())
    return "\n".join(lines) or "    ..."


def _pack(names: list[str]) -> str:
    if not names:
        return "carry"
    return names[0] if len(names) == 1 else "(" + ", ".join(names) + ")"


def _unpack(carry: str) -> str:
    return f"{carry} = carry" if carry != "carry" else "# (no loop-carried state found)"


def _range_args(node: ast.AST, names: Names) -> tuple[str, str] | None:
    if isinstance(node, ast.Call) and names.qualname(node.func) == "builtins.range" and 1 <= len(node.args) <= 2:
        if len(node.args) == 1:
            return "0", ast.unparse(node.args[0])
        return ast.unparse(node.args[0]), ast.unparse(node.args[1])
    return None
