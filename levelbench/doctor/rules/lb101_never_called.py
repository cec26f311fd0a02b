"""LB101, timed-callable-never-called: the check and its fix; the rule's words are its catalogue entry.

    %timeit lambda: f(x)            ->  %timeit f(x)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding
from .._names import dotted
from .._regions import TimedRegion
from .._syntax import short

CODE = "LB101"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB101: ``%timeit lambda: f(x)``, ``timeit.timeit(lambda: g)``, ``%timeit f``."""
    for region in ctx.regions:
        for stmt in region.statements:
            if isinstance(stmt, ast.Lambda):  # timeit.timeit(lambda: ...): the harness calls the lambda
                problem = _uncalled(ctx, stmt.body, strict=True)
                if problem is not None:
                    body = short(stmt.body)
                    yield ctx.report(
                        "LB101",
                        stmt.body,
                        f"{region.by} times `lambda: {body}`, which returns {problem} without calling it",
                        evidence=f"the timed lambda's body is `{body}`, not a call",
                        fix=f"{region.label}(lambda: {body}(...), ...)  # call it, with its arguments",
                    )
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Lambda):
                body = short(stmt.value.body, 50)
                yield ctx.report(
                    "LB101",
                    stmt.value,
                    f"{region.by} times `lambda: {body}`, which only builds a lambda: `{body}` never runs",
                    evidence="the timed statement is a lambda expression: it creates a function object and discards it",
                    fix=_timed_fix(region, short(stmt.value.body)),
                    edits=(lambda: call_the_lambda(ctx, stmt.value)) if region.label.startswith("%") else None,
                )
            elif isinstance(stmt, ast.Expr) and region.harness and len(region.statements) == 1:
                problem = _uncalled(ctx, stmt.value, strict=False)
                if problem is not None:
                    text = short(stmt.value)
                    yield ctx.report(
                        "LB101",
                        stmt.value,
                        f"{region.by} times `{text}`, a function object, without calling it",
                        evidence=f"the timed statement `{text}` evaluates to a function object",
                        fix=_timed_fix(region, f"{text}(...)  # call it, with its arguments"),
                    )


def _timed_fix(region: TimedRegion, statement: str) -> str:
    if region.label.startswith("%"):
        return f"{region.label} {statement}"
    if region.harness:
        return f"{region.label}(lambda: {statement}, ...)"
    return statement


def _uncalled(ctx: Context, expr: ast.AST, *, strict: bool) -> str | None:
    """What ``expr`` evaluates to when it is a function object rather than a call's result."""
    if isinstance(expr, ast.Lambda):
        return "another lambda"
    if isinstance(expr, ast.Call) and (ctx.facts.jit_target(expr) is not None or ctx.facts.is_jit(expr)):
        return f"the jitted function `{short(expr)}`"
    if isinstance(expr, (ast.Name, ast.Attribute)):
        name = dotted(expr) or short(expr)
        facts = ctx.facts
        known = (
            name in facts.defs or name in facts.jitted or name in facts.torch_models or name in facts.flax_models
            or ctx.names.qualname(expr) is not None
        )
        if strict or known:
            return f"the function `{name}`" if known else f"`{name}`"
    return None


@never_hides_the_finding
def call_the_lambda(ctx: Context, lam: ast.Lambda) -> Fix | None:
    """``%timeit lambda: f(x)`` -> ``%timeit f(x)``: the harness runs the statement itself."""
    a = lam.args
    if a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg:
        return None
    edit = ctx.editor.delete_between(lam, lam.body, r"lambda\s*:\s*")
    return as_fix([edit], f"time `{short(lam.body)}` itself, not the making of a lambda")
