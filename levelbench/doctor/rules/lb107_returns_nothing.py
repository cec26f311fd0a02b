"""LB107, jit-returns-nothing: the check and its fix; the rule's words are its catalogue entry.

    def f(x): y = g(x)              ->  ... return y   (unsafe; a commented-out `# return ...` stays,
                                                        the return goes under it)
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding
from .._kinds import call_kind
from .._syntax import bound_names, local_walk, parameter_names, walk_code
from .._vocabulary import site_text

CODE = "LB107"


_COMMENTED_RETURN = re.compile(r"^\s*#\s*(return\b.*)$")


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB107: a jitted function without a ``return <value>``."""
    for function, site in ctx.facts.jitted_defs.items():
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not site.direct:
            continue
        body = list(local_walk(ctx.program, function))
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in body):
            continue
        if not _does_work(ctx, function):
            continue  # `pass`, `raise NotImplementedError`, attribute reads: no computation for XLA to remove
        if _for_effect(ctx, function):
            continue  # `jax.debug.print(...)`, oryx's `variable(x, name="x")`: effects jit keeps, no value lost
        if _updates_nnx_objects(ctx, function, site.node):
            continue  # `@nnx.jit def train_step(model, optimizer, batch): ... optimizer.update(grads)`
        if any(isinstance(n, ast.Return) and n.value is not None and not _is_none(n.value) for n in body):
            continue
        commented = _commented_return(ctx, function)
        evidence = f"no `return <value>` in `{function.name}`, jitted by {site_text(ctx, site)}"
        if commented:
            evidence += f"; `# {commented[1]}` is commented out at {commented[0]}"
        fix = commented[1] if commented else f"return {_last_assigned(function) or 'result'}"
        yield ctx.report(
            "LB107",
            _name_node(ctx, function),
            f"jitted `{function.name}` returns nothing: XLA removes all its work as dead code, so timing it "
            "measures an empty call",
            evidence=evidence,
            fix=f"def {function.name}(...):\n    ...\n    {fix}",
            edits=lambda: return_value(ctx, function),
        )


def _does_work(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """The body computes something (a call, an operator) outside ``raise`` statements: an abstract method or a
    stub has no work for XLA to remove."""
    work = (ast.Call, ast.BinOp, ast.UnaryOp, ast.Compare, ast.Subscript, ast.AugAssign)
    body = [s for s in function.body if not isinstance(s, ast.Raise)]
    return any(isinstance(n, work) for n in walk_code(ctx.program, body))


# JAX's own calls made for their effect, which jit keeps although nothing is returned.
_JAX_EFFECTS = ("jax.debug.", "jax.experimental.io_callback", "jax.experimental.host_callback.")


def _for_effect(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """Every statement of the body is a call whose result is dropped, of a function that returns no array: the
    function runs for those calls' effects (a debug print, a callback, oryx's ``sow``), not for a value that XLA
    could drop. A dropped ``jnp.sin(x)`` or a dropped call of a def of this file is still lost work."""
    body = [s for s in function.body if not isinstance(s, ast.Pass)
            and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))]  # the docstring
    if not body:
        return False
    for statement in body:
        if not (isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Call)):
            return False
        call = statement.value
        if ctx.facts.function_of(call.func) is not None:
            return False
        qualified = ctx.names.qualname(call.func)
        if qualified is not None and not qualified.startswith(_JAX_EFFECTS) and call_kind(qualified) is not None:
            return False
        if qualified is None and not isinstance(call.func, ast.Name):
            return False  # a method (`x.sum()`) may well return an array
    return True


# Flax NNX's jit: the graph objects a call is handed (a module, an optimizer) come back out updated, the state a
# step changed in place copied back to them, so the step's work is their new state, not a value it returns.
_NNX_JITS = frozenset({"flax.nnx.jit"})


def _updates_nnx_objects(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef, jit: ast.AST) -> bool:
    """``function`` is jitted by ``nnx.jit`` and updates an object it is handed in place: a method call made for
    its effect (``optimizer.update(grads)``) or an assignment to an attribute (``model.count.value += 1``). Flax
    NNX writes those updates back to the caller's objects, so XLA keeps the work (Flax's
    ``nnx_simple_training.py``, ``train_step_nnx``, case 359)."""
    decorator = jit.func if isinstance(jit, ast.Call) else jit
    if ctx.names.qualname(decorator) not in _NNX_JITS:
        return False
    parameters = set(parameter_names(function))
    for node in local_walk(ctx.program, function):
        target = None
        call = node.value if isinstance(node, ast.Expr) else None
        if isinstance(call, ast.Call) and isinstance(call.func, ast.Attribute):
            target = call.func.value
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            target = next((t.value for t in targets if isinstance(t, (ast.Attribute, ast.Subscript))), None)
        while isinstance(target, (ast.Attribute, ast.Subscript)):
            target = target.value
        if isinstance(target, ast.Name) and target.id in parameters:
            return True
    return False


def _is_none(node: ast.AST) -> bool:
    return isinstance(node, ast.Constant) and node.value is None


def _commented_return(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, str] | None:
    last = (function.end_lineno or function.lineno) + 3  # a trailing commented return sits just after the body
    for line in range(function.lineno, last + 1):
        m = _COMMENTED_RETURN.match(ctx.program.line_text(line))
        if m and ctx.program.segment_of(line) is ctx.program.segment_of(function.lineno):
            node = ast.Pass(lineno=line, col_offset=0)
            return ctx.where(node), m.group(1).strip()
    return None


def _last_assigned(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for stmt in reversed(function.body):
        if isinstance(stmt, ast.Assign) and isinstance(stmt.targets[0], ast.Name):
            return stmt.targets[0].id
    return None


def _name_node(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.AST:
    """A node spanning the function's name on its ``def`` line."""
    text = ctx.program.line_text(function.lineno)
    m = re.search(rf"\bdef\s+({re.escape(function.name)})\b", text)
    start = len(text[: m.start(1)].encode()) if m else function.col_offset
    node = ast.Name(id=function.name, ctx=ast.Load())
    node.lineno = node.end_lineno = function.lineno
    node.col_offset = start
    node.end_col_offset = start + len(function.name.encode())
    return node


_RETURN_COMMENT = re.compile(r"^(?P<indent>\s*)#\s*return\b\s*(?P<value>.*)$")


@never_hides_the_finding
def return_value(ctx: Context, function: ast.FunctionDef | ast.AsyncFunctionDef) -> Fix | None:
    """Return the computed value: the commented-out ``return`` (on a new line under the comment, which
    stays) when every name in it exists, else the last name the body assigns."""
    editor, program = ctx.editor, ctx.program
    body = function.body
    if not body or not editor.starts_line(body[0]) or body[0].lineno == function.lineno:
        return None
    indent = editor.indentation(body[0].lineno)
    last_line = body[-1].end_lineno or body[-1].lineno
    segment = program.segment_of(function.lineno)
    for line in range(last_line + 1, min(last_line + 4, segment.first_line + len(segment.lines))):
        m = _RETURN_COMMENT.match(program.line_text(line))
        if m is None or m["indent"] != indent or not _names_exist(ctx, function, m["value"]):
            continue
        value = m["value"].rstrip()
        # The commented-out line stays: --fix never deletes a comment, so the return goes under it.
        return as_fix(
            [editor.insert_lines_after(line, f"return {value}", indent)], f"return `{value}` (the commented-out return)"
        )
    name = _last_assigned_name(function)
    if name is None:
        return None
    return as_fix([editor.insert_lines_after(last_line, f"return {name}", indent)], f"return `{name}`")


def _names_exist(ctx: Context, function: ast.AST, text: str) -> bool:
    try:
        expr = ast.parse(text, mode="eval")
    except SyntaxError:
        return False
    local = {a.arg for a in ast.walk(function) if isinstance(a, ast.arg)} | bound_names(function)
    known = {n.id for n in ctx.program.of_type(ast.Name) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}
    known |= {getattr(d, "name", "") for d in ctx.program.of_type(ast.FunctionDef, ast.ClassDef)}
    for node in ctx.program.of_type(ast.Import, ast.ImportFrom):
        known |= {(a.asname or a.name).split(".")[0] for a in node.names}  # type: ignore[attr-defined]
    for node in ast.walk(expr):
        if isinstance(node, ast.Name) and node.id not in local | known and ctx.names.qualname(node) is None:
            return False
    return True


def _last_assigned_name(function: ast.FunctionDef | ast.AsyncFunctionDef) -> str | None:
    for stmt in reversed(function.body):
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1 and isinstance(stmt.targets[0], ast.Name):
            return stmt.targets[0].id
    return None
