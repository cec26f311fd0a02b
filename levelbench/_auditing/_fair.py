"""The fair figure of an interval: its statements re-timed with `levelbench.measure`, after the script ended.

Runs in the script's process, once the script has finished, with the names the script had when it first
computed the interval's difference. The statements between the two clock reads (in the block that holds
both) become the body of a function, and `measure` times it: warmed, every output waited for, repeated to a
confidence interval. Only statements that can run again without changing anything the script sees are
re-timed: expressions and assignments to plain names (which become the function's own), calling nothing
that writes, prints, sleeps or mutates a container. Any other interval gets the reason instead.
"""

from __future__ import annotations

import ast
from typing import Any

BUDGET = 1.0
"""Seconds of sampling per interval (`measure`'s ``budget``)."""
MOST = 10
"""Intervals re-timed at most, in the order first sampled."""
EFFECTS = frozenset({
    "print", "open", "input", "write", "writelines", "append", "extend", "insert", "pop", "popitem", "remove",
    "update", "add", "discard", "setdefault", "clear", "sort", "reverse", "save", "savez", "savetxt", "dump",
    "send", "put", "sleep", "exit", "system", "seed", "manual_seed", "setattr", "delattr", "exec", "eval",
})
"""Calls whose effect a second run would repeat (I/O, mutation of a container, the random state, waiting)."""
FUNCTION = "__levelbench_fair__"
_LAST = "__levelbench_last__"


def fair_figures(source: str, script: str, namespaces: dict[tuple[int, int], dict[str, Any]],
                 timer: Any) -> dict[str, dict[str, Any]]:
    """``{"opening:closing": {"median", "low", "high", "samples"} or {"refused": why}}`` per line pair."""
    # lazy: measure (and the framework adapters) load only once the script has ended
    from .._measuring.measure import measure

    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError) as e:
        return {f"{o}:{c}": {"refused": f"the script does not parse: {e}"} for o, c in namespaces}
    found: dict[str, dict[str, Any]] = {}
    for index, ((opening, closing), names) in enumerate(namespaces.items()):
        key = f"{opening}:{closing}"
        if index >= MOST:
            found[key] = {"refused": f"only the first {MOST} intervals are re-timed"}
            continue
        statements, why = statements_between(tree, opening, closing)
        if statements is None:
            found[key] = {"refused": why}
            continue
        try:
            function = _function(statements, script, names)
            m = measure(function, budget=BUDGET, timer=timer, environment=False, count_flops=False)
        except KeyboardInterrupt:
            found[key] = {"refused": "stopped (the time limit or Ctrl-C) while re-timing"}
            break
        except Exception as e:  # the statements fail out of their place in the script: say so
            found[key] = {"refused": f"re-running lines {opening + 1}-{closing - 1} raised "
                                     f"{type(e).__name__}: {e}"}
            continue
        found[key] = {"median": m.median, "low": m.ci.lower, "high": m.ci.upper, "samples": m.n_samples,
                      "framework": m.framework}
    return found


def statements_between(tree: ast.Module, opening: int, closing: int) -> tuple[list[ast.stmt] | None, str]:
    """The statements strictly between the two reads, in the block that holds both; or None and why not."""
    low, high = sorted((opening, closing))
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody"):
            body = getattr(node, field, None)
            if not (isinstance(body, list) and body and isinstance(body[0], ast.stmt)):
                continue
            # a simple statement of this block holds the read (a compound one: look in its blocks instead)
            holds = [any(s.lineno <= line <= (s.end_lineno or s.lineno) and not hasattr(s, "body") for s in body)
                     for line in (low, high)]
            if not all(holds):
                continue
            inside = [s for s in body if s.lineno > low and (s.end_lineno or s.lineno) < high]
            if not inside:
                return None, "no statement lies between the two clock reads"
            return _refusal(inside)
    return None, "the two clock reads are not in one block of code (a helper function times what it is given)"


def _refusal(statements: list[ast.stmt]) -> tuple[list[ast.stmt] | None, str]:
    for statement in statements:
        if isinstance(statement, (ast.For, ast.While, ast.AsyncFor)):
            return None, f"line {statement.lineno} is a loop: the script's figure is a loop's, not one call's"
        if not isinstance(statement, (ast.Expr, ast.Assign, ast.AnnAssign)):
            kind = type(statement).__name__.lower()
            return None, f"line {statement.lineno} is a `{kind}` statement: only expressions and assignments are re-run"
        targets = statement.targets if isinstance(statement, ast.Assign) else \
            [statement.target] if isinstance(statement, ast.AnnAssign) else []
        for target in targets:
            if not all(isinstance(n, (ast.Name, ast.Tuple, ast.List, ast.Store)) for n in ast.walk(target)):
                return None, (f"line {statement.lineno} assigns to `{ast.unparse(target)}`: re-running it would "
                              "change what the script holds")
        for call in (n for n in ast.walk(statement) if isinstance(n, ast.Call)):
            name = call.func.attr if isinstance(call.func, ast.Attribute) else getattr(call.func, "id", "")
            if name in EFFECTS:
                return None, f"line {statement.lineno} calls `{name}`: re-running it would repeat its effect"
    return statements, ""


def function_source(statements: list[ast.stmt]) -> ast.Module:
    """The statements as ``def __levelbench_fair__():`` of no argument, returning what they assigned and the
    last value: the module that defines it."""
    body = list(statements)
    assigned = sorted({n.id for s in body for n in ast.walk(s)
                       if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)})
    results: list[ast.expr] = [ast.Name(id=name, ctx=ast.Load()) for name in assigned]
    if isinstance(body[-1], ast.Expr):
        body[-1] = ast.Assign(targets=[ast.Name(id=_LAST, ctx=ast.Store())], value=body[-1].value)
        results.append(ast.Name(id=_LAST, ctx=ast.Load()))
    body.append(ast.Return(value=ast.Tuple(elts=results, ctx=ast.Load())))
    module = ast.parse(f"def {FUNCTION}():\n    pass\n")  # a FunctionDef with the fields of this Python
    module.body[0].body = body  # type: ignore[attr-defined]
    return ast.fix_missing_locations(module)


def _function(statements: list[ast.stmt], script: str, names: dict[str, Any]) -> Any:
    """The statements as a function (`function_source`) over the script's names, in this process."""
    scope = dict(names)  # the script's names stay as they were
    # the script's own statements, in its own process
    exec(compile(function_source(statements), script, "exec"), scope)  # noqa: S102
    return scope[FUNCTION]
