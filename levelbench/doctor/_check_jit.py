"""Rules about how code is jitted: LB106 (Python loop under jit), LB107 (jitted function returns
nothing), LB111 (jit re-created), LB114 (op-by-op dispatch without jit)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ._context import Context
from ._diagnostic import Diagnostic
from ._effects import is_wait
from ._facts import JitSite
from ._program import Program
from ._rewrite import loop_rewrite
from ._syntax import FUNCTIONS, LOOPS, enclosing_function, enclosing_loop, local_walk, short, walk_code

# Iterating over these is walking a structure (layers, a params pytree), not data: small and static.
_STRUCTURAL = re.compile(
    r"(?i)(param|layer|weight|block|module|stage|head|level|leaves|tree|items|keys|values|kernel|bias"
    r"|config|cfg|spec|devices|self\.)"
)
_SMALL_RANGE = 16
# Building arrays in a loop (inputs of a sweep) is not the op-by-op pattern LB114 is about.
_CONSTRUCTORS = frozenset(
    {"array", "asarray", "zeros", "ones", "full", "empty", "eye", "arange", "linspace", "zeros_like", "ones_like",
     "full_like", "empty_like", "identity"}
)
_COMMENTED_RETURN = re.compile(r"^\s*#\s*(return\b.*)$")


def check_loop_under_jit(ctx: Context) -> Iterator[Diagnostic]:
    """LB106: a Python loop over data or a range inside a function that runs under jit."""
    for function, site in ctx.facts.traced_defs.items():
        name = getattr(function, "name", "<lambda>")
        for loop in local_walk(ctx.program, function):
            if not isinstance(loop, LOOPS):
                continue
            over = _iterates_over_data(ctx, function, loop)
            if over is None:
                continue
            flax = any(isinstance(n, ast.Call) and ctx.facts.is_flax_call(n) for n in walk_code(ctx.program, loop.body))
            keyword = "while" if isinstance(loop, ast.While) else "for"
            where = f"jitted `{name}`" if site.direct else f"`{name}` (traced by jitted `{site.caller}`)"
            message = (
                f"Python `{keyword}` loop over {over} inside {where}: it is unrolled at trace time, one copy of "
                "the body per step, so compile time grows with the loop length"
            )
            if flax:
                message += " (a Flax module is applied at every step)"
            replacement = "jax.lax.while_loop" if keyword == "while" else "jax.lax.scan"
            yield ctx.report(
                "LB106",
                loop,
                message,
                end=loop.test if isinstance(loop, ast.While) else loop.iter,
                evidence=f"`{name}` runs under jit: {_site_text(ctx, site)}; rewrite the loop with {replacement}",
                fix=loop_rewrite(loop, ctx.names, flax=flax),
            )


def _site_text(ctx: Context, site: JitSite) -> str:
    return f"`{site.label}` at {ctx.where(site.node)}"


def _iterates_over_data(ctx: Context, function: ast.AST, loop: ast.For | ast.AsyncFor | ast.While) -> str | None:
    """A short description of what the loop walks when that is data or a range, None for a small structure."""
    if isinstance(loop, ast.While):
        return f"`{short(loop.test, 40)}`"
    iterable = loop.iter
    text = short(iterable, 50)
    if _STRUCTURAL.search(text):
        return None
    wrappers = ("builtins.enumerate", "builtins.zip", "builtins.reversed")
    if isinstance(iterable, ast.Call) and ctx.names.qualname(iterable.func) in wrappers:
        inner = [_iterates_over_data(ctx, function, _fake_for(arg)) for arg in iterable.args]
        return f"`{text}`" if any(inner) else None
    if isinstance(iterable, ast.Call) and ctx.names.qualname(iterable.func) == "builtins.range":
        bounds = [a.value for a in iterable.args if isinstance(a, ast.Constant) and isinstance(a.value, int)]
        if len(bounds) == len(iterable.args) and max(bounds, default=0) <= _SMALL_RANGE:
            return None
        return f"`{text}`"
    if ctx.kinds.of(iterable) == "jax":
        return f"`{text}`"
    root = iterable
    while isinstance(root, (ast.Attribute, ast.Subscript)):
        root = root.value
    if isinstance(root, ast.Name) and root.id in _parameters(function):
        return f"the argument `{text}`" if root is iterable else f"`{text}`"
    return None


def _fake_for(iterable: ast.expr) -> ast.For:
    return ast.For(target=ast.Name(id="_", ctx=ast.Store()), iter=iterable, body=[], orelse=[])


def _parameters(function: ast.AST) -> set[str]:
    """Named parameters; ``*args`` is left out: looping over the arguments walks a fixed-size tuple."""
    args = getattr(function, "args", None)
    if args is None:
        return set()
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}


def check_returns_nothing(ctx: Context) -> Iterator[Diagnostic]:
    """LB107: a jitted function without a ``return <value>``."""
    for function, site in ctx.facts.jitted_defs.items():
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not site.direct:
            continue
        body = list(local_walk(ctx.program, function))
        if any(isinstance(n, (ast.Yield, ast.YieldFrom)) for n in body):
            continue
        if any(isinstance(n, ast.Return) and n.value is not None and not _is_none(n.value) for n in body):
            continue
        commented = _commented_return(ctx, function)
        evidence = f"no `return <value>` in `{function.name}`, jitted by {_site_text(ctx, site)}"
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
        )


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


def check_jit_recreated(ctx: Context) -> Iterator[Diagnostic]:
    """LB111: ``jax.jit`` applied inside a loop, a repeated timed statement, or to a fresh function per call."""
    facts, program = ctx.facts, ctx.program
    repeated = [r for r in ctx.regions if r.samples in ("repeated", "averaged") and r.harness]
    harness_nodes = {id(n) for r in repeated for n in walk_code(ctx.program, list(r.work))}
    seen: set[int] = set()
    candidates = list(program.of_type(ast.Call))
    candidates += [n for r in repeated for n in walk_code(ctx.program, list(r.work)) if isinstance(n, ast.Call)]
    for call in candidates:
        target = facts.jit_target(call)
        if target is None or id(call) in seen:
            continue
        seen.add(id(call))
        parent = program.parent(call)
        called_now = isinstance(parent, ast.Call) and parent.func is call
        fresh = _fresh_function(ctx, target)
        what = f"`{short(target, 40)}`"
        if id(call) in harness_nodes and called_now:
            message = f"`{short(call)}` jits inside the repeated timed statement: every run re-wraps {what}"
            message += ", a new function each time, so every run recompiles" if fresh else ""
        elif fresh and enclosing_loop(program, call) is not None and _used_in_loop(program, call, parent, called_now):
            message = (
                f"`{short(call)}` inside a loop jits {what}, a new function every iteration: JAX caches compiled "
                "code per function object, so every iteration recompiles"
            )
        elif fresh and _fresh_per_call(ctx, call, parent, called_now):
            outer = enclosing_function(program, call)
            outer_name = getattr(outer, "name", "?")
            message = (
                f"`{short(call)}` in `{outer_name}` jits a new function on every call of `{outer_name}`: JAX caches "
                "compiled code per function object, so every call recompiles"
            )
        else:
            continue
        yield ctx.report(
            "LB111",
            call,
            message,
            evidence=f"jax.jit is applied to {what} where it runs more than once",
            fix=f"jitted = {ast.unparse(call)}  # once, at module level (or cached)\n# ...then call jitted(...)",
        )


def _fresh_function(ctx: Context, target: ast.AST) -> bool:
    """The jitted thing is built anew each time the jit call runs: a lambda, a partial, a nested def."""
    if isinstance(target, ast.Lambda):
        return True
    if isinstance(target, ast.Call) and ctx.names.qualname(target.func) == "functools.partial":
        return True
    function = ctx.facts.function_of(target)
    return function is not None and isinstance(ctx.program.parent(function), FUNCTIONS)


def _used_in_loop(program: Program, call: ast.Call, parent: ast.AST | None, called_now: bool) -> bool:
    if called_now:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        loop = enclosing_loop(program, call)
        name = parent.targets[0].id
        return any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == name for n in program.walk(loop)
        )
    return False


def _fresh_per_call(ctx: Context, call: ast.Call, parent: ast.AST | None, called_now: bool) -> bool:
    outer = enclosing_function(ctx.program, call)
    if not isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) or outer.name in ("__init__", "setup"):
        return False
    if not ctx.facts.called_repeatedly(outer):
        return False
    if called_now:
        return True
    if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
        name = parent.targets[0].id
        returns = [n.value for n in local_walk(ctx.program, outer) if isinstance(n, ast.Return) and n.value is not None]
        return not any(isinstance(m, ast.Name) and m.id == name for value in returns for m in ast.walk(value))
    return False


def check_op_by_op(ctx: Context) -> Iterator[Diagnostic]:
    """LB114: JAX operations dispatched one by one in a Python loop that no jit covers."""
    facts = ctx.facts
    if not facts.frameworks & {"jax", "flax", "equinox"}:
        return
    traced = set(facts.traced_defs)
    region_starts = {r.start for r in ctx.regions}
    for loop in ctx.program.of_type(*LOOPS):
        nodes = list(local_walk(ctx.program, loop))
        ops, applies = _eager_ops(ctx, nodes)
        if ops < 2 and not applies:
            continue
        if isinstance(loop, (ast.For, ast.AsyncFor)) and _STRUCTURAL.search(short(loop.iter, 80)):
            continue  # layers of a model: a handful of dispatches, not a loop over data
        if not _runs_eagerly(ctx, loop, traced):
            continue
        if any((getattr(n, "lineno", 0), getattr(n, "col_offset", 0)) in region_starts for n in nodes):
            continue  # a benchmark sweep: the loop holds the timing
        if any(isinstance(n, ast.Call) and (facts.calls_jax_callable(n) or _is_measure(ctx, n)) for n in nodes):
            continue
        what = "a Flax module apply" if applies else f"{ops} JAX operations"
        yield ctx.report(
            "LB114",
            loop,
            f"{what} per iteration dispatched one by one in a Python loop with no jit around it",
            end=loop.test if isinstance(loop, ast.While) else loop.iter,
            evidence=f"{ops + applies} JAX calls in the loop body, none of them inside a jitted function",
            fix=_jitted_loop_fix(loop, ctx, flax=bool(applies)),
        )
    yield from _unjitted_timed_calls(ctx)


def _runs_eagerly(ctx: Context, loop: ast.AST, traced: set[ast.AST]) -> bool:
    """The loop is at module level, or in a plain function only ever called directly (never jitted, never
    handed to something that might jit it). Methods are skipped: who jits them is not visible statically."""
    function = enclosing_function(ctx.program, loop)
    if function is None:
        return True
    if function in traced or any(a in traced for a in ctx.program.ancestors(function)):
        return False
    if isinstance(ctx.program.parent(function), ast.ClassDef) or isinstance(function, ast.Lambda):
        return False
    sites = ctx.facts.call_sites(function)
    return all(isinstance(p := ctx.program.parent(s), ast.Call) and p.func is s for s in sites)


def _jitted_loop_fix(loop: ast.For | ast.AsyncFor | ast.While, ctx: Context, *, flax: bool) -> str:
    inner = loop_rewrite(loop, ctx.names, flax=flax)
    body = "\n".join("    " + line for line in inner.splitlines())
    header = "@jax.jit  # jit the function that holds the loop, with the loop as a scan\ndef run(...):"
    return f"{header}\n{body}\n    return ..."


def _eager_ops(ctx: Context, nodes: list[ast.AST]) -> tuple[int, int]:
    ops = applies = 0
    for node in nodes:
        if isinstance(node, ast.Call):
            qualified = ctx.names.qualname(node.func) or ""
            if qualified.startswith(("jax.numpy.", "jax.nn.", "jax.lax.", "jax.scipy.")):
                ops += qualified.rsplit(".", 1)[-1] not in _CONSTRUCTORS
            elif qualified:
                continue
            elif ctx.facts.is_flax_call(node):
                applies += 1
            elif isinstance(node.func, ast.Attribute) and ctx.kinds.of(node.func.value) == "jax":
                ops += not is_wait(ctx, node)
        elif isinstance(node, ast.BinOp) and ctx.kinds.of(node) == "jax":
            ops += 1
    return ops, applies


def _is_measure(ctx: Context, call: ast.Call) -> bool:
    return (ctx.names.qualname(call.func) or "").startswith("levelbench.")


def _unjitted_timed_calls(ctx: Context) -> Iterator[Diagnostic]:
    """A timed call of the plain version of a function that is jitted elsewhere, whose loop runs op by op."""
    facts = ctx.facts
    for region in ctx.regions:
        for call in (n for n in walk_code(ctx.program, list(region.work)) if isinstance(n, ast.Call)):
            function = facts.local_def(call)
            if function is None or function not in facts.jitted_defs:
                continue
            loops = [n for n in local_walk(ctx.program, function) if isinstance(n, LOOPS)]
            if not any(sum(_eager_ops(ctx, list(local_walk(ctx.program, loop)))) for loop in loops):
                continue
            site = facts.jitted_defs[function]
            yield ctx.report(
                "LB114",
                call,
                f"`{short(call)}` times `{function.name}` without jit: its Python loop dispatches JAX operations "
                "one by one",
                evidence=f"`{function.name}` is jitted elsewhere ({_site_text(ctx, site)}) but called directly here",
                fix=f"# time the jitted version, e.g. `{site.label}`, warmed up and blocked",
            )
            break
