"""Rules about how a timed region measures: LB101 (never called), LB102 (not waited for),
LB103 (compile timed), LB104 (single sample), LB105 (wall clock)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator

from ._context import Context
from ._diagnostic import Diagnostic
from ._effects import is_wait, unawaited_jax
from ._fix_pairs import repeat_timing, steady_clock
from ._fixes import call_the_lambda, wait_for, warm_up
from ._names import dotted
from ._regions import WALL_CLOCKS, TimedRegion
from ._syntax import enclosing_function, enclosing_loop, local_walk, position, short, unparse, walk_code


def check_never_called(ctx: Context) -> Iterator[Diagnostic]:
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


def check_unawaited(ctx: Context) -> Iterator[Diagnostic]:
    """LB102: a JAX computation in a timed region that nothing waits for."""
    for region in ctx.regions:
        culprit = unawaited_jax(ctx, region.work, region.before_clock)
        if culprit is None:
            continue
        text = short(culprit)
        yield ctx.report(
            "LB102",
            culprit,
            f"`{text}` is timed by {region.by} without waiting for it: JAX returns before the work is done",
            evidence=f"no block_until_ready() or host conversion of the result of `{text}` inside the timed region",
            fix=_blocked_fix(region, culprit),
            edits=lambda: wait_for(ctx, culprit),
        )


def _blocked_fix(region: TimedRegion, culprit: ast.AST) -> str:
    text = unparse(culprit)
    if region.label.startswith("%"):
        return f"{region.label} {text}.block_until_ready()"
    if region.label.startswith("timeit"):
        return f"{region.label}(lambda: {text}.block_until_ready(), ...)"
    return f"jax.block_until_ready({text})  # inside the timed region, before reading the clock"


_NO_KEYS: frozenset[str] = frozenset()


class _Reach:
    """Which jitted callables a call runs, directly or through local functions."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._memo: dict[ast.AST, frozenset[str]] = {}
        self._calls: dict[ast.AST, frozenset[str]] = {}  # each call's answer, kept when no function was half-done
        self._open = 0  # functions being walked: their recursion guard stands for an answer not known yet

    def of_call(self, call: ast.Call) -> frozenset[str]:
        found = self._calls.get(call)
        if found is None:
            found = self._of_call(call)
            if not self._open:
                self._calls[call] = found
        return found

    def _of_call(self, call: ast.Call) -> frozenset[str]:
        keys: set[str] = set()
        key = self.ctx.facts.jitted_key(call)
        if key is not None:
            keys.add(key)
        keys.update(k for v in self.ctx.facts.passed_functions(call) if (k := self.ctx.facts.jitted_key_of(v)))
        function = self.ctx.facts.local_def(call)
        if function is not None:
            keys |= self._of_function(function)
        return frozenset(keys) if keys else _NO_KEYS

    def _of_function(self, function: ast.AST) -> frozenset[str]:
        if function not in self._memo:
            self._memo[function] = frozenset()  # recursion guard
            self._open += 1
            try:
                found: set[str] = set()
                for node in local_walk(self.ctx.program, function):
                    if isinstance(node, ast.Call):
                        found |= self.of_call(node)
            finally:
                self._open -= 1
            self._memo[function] = frozenset(found)
        return self._memo[function]


def check_compile_timed(ctx: Context) -> Iterator[Diagnostic]:
    """LB103: the first call of a jitted function lands inside a timed region."""
    # A clock pair in a loop: the first iteration's sample holds the compilation. A function timed per call
    # compiles on its first call only, which the caller may have warmed: not reported.
    candidates = [
        r for r in ctx.regions
        if not r.calibrated and (
            r.samples != "per-iteration" or enclosing_loop(ctx.program, r.anchor) is not None or _times_a_parameter(ctx, r)
        )
        and not _says_it_times_compilation(ctx, r) and not _compiles_by_design(ctx, r)
    ]
    if not candidates:
        return
    reach = _Reach(ctx)
    # (scope, key) -> the calls in that scope that reach the key, in program order: a region asks only about
    # the keys it calls, so that many regions in a long file do not each walk every call.
    calls_by_key: dict[tuple[int, str], list[tuple[tuple[int, int], int]]] = {}
    for node in ctx.program.of_type(ast.Call):
        keys = reach.of_call(node)
        if keys:
            scope = id(enclosing_function(ctx.program, node))
            for key in keys:
                calls_by_key.setdefault((scope, key), []).append((position(node), id(node)))
    for calls in calls_by_key.values():
        calls.sort()

    def called_in(scope: ast.AST | None, key: str, start: tuple[int, int], timed_ids: set[int]) -> bool:
        for where, call_id in calls_by_key.get((id(scope), key), ()):
            if where >= start:
                return False
            if call_id not in timed_ids:
                return True
        return False

    def called_before(key: str, region: TimedRegion, timed_ids: set[int]) -> bool:
        if called_in(region.scope, key, region.start, timed_ids):
            return True
        # a timing helper: warmed up before every place it is called (`f(x)` then `run_benchmark()`)
        sites = [s for s in ctx.facts.call_sites(region.scope)
                 if isinstance(p := ctx.program.parent(s), ast.Call) and p.func is s] if region.scope else []
        return bool(sites) and all(
            called_in(enclosing_function(ctx.program, s), key, position(s), timed_ids) for s in sites
        )

    for region in candidates:
        timed = ctx.timed_calls(region)
        timed_ids = {id(n) for n in timed}
        warm: set[str] = set()
        for node in region.setup:
            for call in (n for n in walk_code(ctx.program, [node]) if isinstance(n, ast.Call)):
                warm |= reach.of_call(call)
        for call in timed:
            cold = sorted(k for k in reach.of_call(call) - warm if not called_before(k, region, timed_ids))
            if not cold:
                continue
            yield _compile_finding(ctx, region, call, cold[0])
            break


_COMPILATION_COMMENT = re.compile(r"#.*\bcompil", re.IGNORECASE)


def _says_it_times_compilation(ctx: Context, region: TimedRegion) -> bool:
    """``%time f(x)  # measure compilation time``: the user times the first call on purpose."""
    lines = {getattr(s, "lineno", 0) for s in region.statements} | {getattr(region.anchor, "lineno", 0)}
    return any(_COMPILATION_COMMENT.search(ctx.program.line_text(line)) for line in lines if line)


def _times_a_parameter(ctx: Context, region: TimedRegion) -> bool:
    """``def bench(df): t0 = ...; df(x)`` called with a different jitted function each time: every call of
    ``bench`` times a first call."""
    calls = ctx.timed_calls(region)
    return any(ctx.facts.jitted_key_of(v) for c in calls for v in ctx.facts.passed_functions(c))


def _compiles_by_design(ctx: Context, region: TimedRegion) -> bool:
    """A loop whose variable goes into the timed call (``for n in sizes: t0 = ...; f(x, n)``) compiles for each
    new value: the sweep measures compilation, or each step is a new program; the first-call warning misleads."""
    loop = enclosing_loop(ctx.program, region.anchor)
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return any(
        isinstance(n, ast.Name) and n.id in bound for n in ctx.timed_nodes(region)
    )


def _compile_finding(ctx: Context, region: TimedRegion, call: ast.Call, key: str) -> Diagnostic:
    site = ctx.facts.jitted.get(key)
    evidence = (
        f"`{key}` is jitted at {ctx.where(site.node)} (`{site.label}`) and not called before this region"
        if site is not None
        else f"`{key}` creates a jitted function inside the timed region"
    )
    if region.samples == "averaged":
        message = f"`{short(call)}` compiles on its first iteration inside the timed loop: compile time is averaged in"
    else:
        message = f"{region.by} times the first call of jitted `{key}`: it includes tracing and XLA compilation"
    text = unparse(call)
    fix = f"jax.block_until_ready({text})  # warm-up: compiles, untimed\n"
    fix += f"{region.label} {text}.block_until_ready()" if region.label.startswith("%") else "# ...then time it"
    return ctx.report("LB103", call, message, evidence=evidence, fix=fix, edits=lambda: warm_up(ctx, region, call))


def check_single_sample(ctx: Context) -> Iterator[Diagnostic]:
    """LB104: one clock reading around one run of framework code."""
    for region in ctx.regions:
        if region.samples != "single" or not (region.clocks or region.label in ("timeit.timeit", "%timeit")):
            continue
        timed = ctx.timed_nodes(region)
        work_calls = [n for n in timed if isinstance(n, ast.Call) and ctx.does_framework_work(n)]
        if not work_calls:
            continue
        first = next((c for c in work_calls if not is_wait(ctx, c)), work_calls[0])
        warmed = _called_before(ctx, region, first)
        clock = region.clocks[0] + "()" if region.clocks else region.label
        how = (
            f"{clock} is read once before and once after" if region.clocks
            else "-n1 -r1 times" if region.label == "%timeit" else "number=1 times"
        )
        message = f"single timing sample: {how} `{short(first)}`"
        if not warmed:
            message += ", with no warm-up run before it"
        anchor = region.statements[0] if region.clocks else region.anchor
        yield ctx.report(
            "LB104",
            anchor,
            message,
            evidence="one run: compile, cache and allocation costs and machine noise all land in the one number",
            fix=(
                f"import levelbench\nprint(levelbench.measure(lambda: {unparse(first)}))"
                "  # warm-up, repeats, median and spread"
            ),
            edits=lambda: repeat_timing(ctx, region),
        )


def _called_before(ctx: Context, region: TimedRegion, call: ast.Call) -> bool:
    first = ctx.index("LB104 first calls", lambda: _FirstCalls(ctx)).of(call.func, region.scope)
    return first is not None and first < region.start


class _FirstCalls:
    """Where a callee (as written: ``f``, ``model.apply``, ``jax.jit(f)``) is first called in each function.

    The calls are grouped by callee once; where each callee is first called in each function is found when that
    callee is first asked about (a long file has tens of thousands of calls, and asks about the callees of its
    single-sample regions only)."""

    def __init__(self, ctx: Context) -> None:
        self.program = ctx.program
        self.calls: dict[str | None, list[ast.Call]] = {}  # by dotted callee; None: the others (`jax.jit(f)(x)`)
        for node in ctx.program.of_type(ast.Call):
            self.calls.setdefault(dotted(node.func), []).append(node)  # type: ignore[attr-defined]
        self.firsts: dict[str, dict[int, tuple[int, int]]] = {}  # callee -> id(function) -> first call's position
        self.others: dict[str, list[ast.Call]] | None = None  # the calls of bucket None, by callee as written

    def of(self, func: ast.expr, scope: ast.AST | None) -> tuple[int, int] | None:
        """Where the callee ``func`` is first called in ``scope`` (None: module level), if it is."""
        text = unparse(func)
        if text not in self.firsts:
            name = dotted(func)
            if name is not None:
                calls = self.calls.get(name, [])
            else:  # the other callees written out once, the first time one is asked about
                if self.others is None:
                    self.others = {}
                    for c in self.calls.get(None, []):
                        self.others.setdefault(unparse(c.func), []).append(c)
                calls = self.others.get(text, [])
            first: dict[int, tuple[int, int]] = {}
            for node in calls:
                key, where = id(enclosing_function(self.program, node)), position(node)
                if key not in first or where < first[key]:
                    first[key] = where
            self.firsts[text] = first
        return self.firsts[text].get(id(scope))


def check_wall_clock(ctx: Context) -> Iterator[Diagnostic]:
    """LB105: ``time.time()`` used to time framework work."""
    for region in ctx.regions:
        wall = [c for c in region.clocks if c in WALL_CLOCKS]
        if not wall or region.clock_node is None:
            continue
        timed = ctx.timed_nodes(region)
        if not any(isinstance(n, ast.Call) and _does_work(ctx, n) for n in timed):
            continue
        name = wall[0].rsplit(".", 1)[-1]
        if wall[0].startswith("datetime."):
            yield ctx.report(
                "LB105",
                region.clock_node,
                f"`datetime.{name}()` differences time an interval: it is the wall clock, which can jump and has "
                "coarse resolution on some systems",
                evidence=f"the region is timed with `{wall[0]}`",
                fix="start = time.perf_counter()",
            )
            continue
        yield ctx.report(
            "LB105",
            region.clock_node,
            f"`time.{name}()` times an interval: it is the wall clock, which can jump and is coarse on some systems",
            evidence=f"the region is timed with `{wall[0]}`",
            fix=f"start = time.perf_counter{'_ns' if name.endswith('_ns') else ''}()",
            edits=lambda: steady_clock(ctx, region),
        )


def _does_work(ctx: Context, call: ast.Call) -> bool:
    """Framework work, or (in a file that uses a framework) a call of something the file does not define,
    such as a model loaded elsewhere (``backbone_trt(images)``): not ``print`` or ``sleep``."""
    if ctx.does_framework_work(call):
        return True
    qualified = ctx.names.qualname(call.func)
    return bool(ctx.facts.frameworks) and qualified is None and ctx.facts.local_def(call) is None and not isinstance(
        call.func, ast.Attribute
    )
