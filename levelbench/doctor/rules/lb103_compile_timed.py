"""LB103, compile-in-timing: the check and its fix; the rule's words are its catalogue entry.

    %time f(x)                      ->  jax.block_until_ready(f(x))  # warm-up ...
                                        %time f(x)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding, with_imports
from .._effects import only_logs_its_interval
from .._fixes import CELL_MAGIC_LINE, is_marker, statement_of
from .._intent import times_compilation_on_purpose
from .._names import dotted
from .._regions import TimedRegion
from .._syntax import (
    COMPREHENSIONS, FUNCTIONS, LOOPS, bound_names, enclosing_function, enclosing_loop, local_walk, position, running_function, short,
    unparse, walk_code,
)

CODE = "LB103"


_NO_KEYS: frozenset[str] = frozenset()


class _Reach:
    """Which jitted callables a call runs, directly or through local functions."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._memo: dict[ast.AST, frozenset[str]] = {}
        self._calls: dict[ast.AST, frozenset[str]] = {}  # each call's answer, kept when no function was half-done
        self._open = 0  # functions being walked: their recursion guard stands for an answer not known yet
        self.made_anew = _nested_jitted_defs(ctx)

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
        keys.update(_handed_jits(self.ctx, call.func, 0))
        # `jax.lax.scan(one_step, init, xs)` outside jit, `one_step` a jitted def its function makes anew: the
        # loop's program compiles it here, on every call of that function (BlackJAX's `inference_loop`, case 360)
        keys.update(k for v in self.ctx.facts.compiled_arguments(call)
                    if (k := self.ctx.facts.jitted_key_of(v)) and k in self.made_anew)
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


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB103: the first call of a jitted function lands inside a timed region."""
    # A clock pair in a loop: the first iteration's sample holds the compilation. A function timed per call
    # compiles on its first call only, which the caller may have warmed: not reported.
    candidates = [
        r for r in ctx.regions
        if not r.calibrated and (
            r.samples != "per-iteration" or enclosing_loop(ctx.program, r.anchor) is not None or _times_a_parameter(ctx, r)
            or _averages_its_own_loop(ctx, r)
        )
        and not times_compilation_on_purpose(ctx, r) and not _compiles_by_design(ctx, r)
        and not only_logs_its_interval(ctx, r)  # a progress line about an activity, not a measurement
        and not ctx.facts.in_a_branch_never_taken(r.anchor)  # `if separate:` every caller leaves off (case 461)
    ]
    if not candidates:
        return
    reach = _Reach(ctx)
    # (scope, key) -> the calls in that scope that reach the key, in program order: a region asks only about
    # the keys it calls, so that many regions in a long file do not each walk every call.
    calls_by_key: dict[tuple[int, str], list[tuple[tuple[int, int], ast.Call]]] = {}
    for node in ctx.program.of_type(ast.Call):
        keys = reach.of_call(node) or _compiled_ahead(ctx, node)
        if keys and not ctx.facts.in_a_branch_never_taken(node):  # a call that never runs warms nothing
            scope = id(running_function(ctx.program, node))  # `timeit(lambda: f(x))` calls f where it stands
            for key in keys:
                calls_by_key.setdefault((scope, key), []).append((position(node), node))
    # A callable handed to a timing harness is called by it (`timeit.timeit(solve_, number=1)`, `solve_` a
    # `partial` of a jitted `solve`): that run warms the next timing of the same callable, even when it was timed
    # itself on purpose ('Compile+run time' then 'Run time', diffrax's scan_stages.py).
    for region, call in ctx.harness_runs:
        for key in reach.of_call(call):
            calls_by_key.setdefault((id(region.scope), key), []).append((region.start, call))
    for calls in calls_by_key.values():
        calls.sort(key=lambda found: found[0])

    made_anew = reach.made_anew

    def called_in(
        scope: ast.AST | None, key: str, start: tuple[int, int], timed: ast.Call, timed_ids: set[int],
        helper: ast.AST | None = None,
    ) -> bool:
        outers = made_anew.get(key)
        if outers is not None and not (scope is not None and (
                any(scope is o for o in outers) or any(a is o for a in ctx.program.ancestors(scope) for o in outers))):
            return False  # calls of the function that makes it anew: each compiled a function the next call lacks
        for where, earlier in calls_by_key.get((id(scope), key), ()):
            if where >= start:
                return False
            if helper is not None and ctx.facts.local_def(earlier) is helper and not _hands(ctx, earlier, key):
                continue  # the helper run on another function (`eval(jax.grad(f))` before `eval(jax.grad(f_jit))`)
            if id(earlier) not in timed_ids and ctx.warms(earlier, timed):
                return True
        return False

    def called_before(key: str, region: TimedRegion, timed: ast.Call, timed_ids: set[int]) -> bool:
        if called_in(region.scope, key, region.start, timed, timed_ids):
            return True
        # a timing helper: warmed up before every place it is called (`f(x)` then `run_benchmark()`)
        sites = [s for s in ctx.facts.call_sites(region.scope)
                 if isinstance(p := ctx.program.parent(s), ast.Call) and p.func is s] if region.scope else []
        # a helper handed what it times (`bench(gen_jit, ids)`): only the places that hand it this function run it
        # there, and each is warmed where it stands (Keras's `bench.py`, case 452: one `bench` for every framework)
        handing = [s for s in sites if _hands(ctx, ctx.program.parent(s), key)]
        return bool(sites) and all(
            called_in(enclosing_function(ctx.program, s), key, position(s), timed, timed_ids,
                      region.scope if handing else None)
            for s in handing or sites
        )

    # a start read again later (`_regions._later_readings`): the calls an earlier reading already times are
    # reported there, and the later figure's own first calls here (case 383's 'forward pass')
    seen_by_clock: dict[int, set[int]] = {}
    read_earlier: dict[int, set[int]] = {}
    for region in sorted(candidates, key=lambda r: getattr(r.closing, "lineno", 0)):
        if region.clock_node is not None:
            seen = seen_by_clock.setdefault(id(region.clock_node), set())
            read_earlier[id(region)] = set(seen)
            seen |= {id(n) for n in ctx.timed_calls(region)}
    for region in candidates:
        timed = ctx.timed_calls(region)
        in_setup = _jitted_in_setup(ctx, region)
        cold_in_setup = next((c for c in timed if isinstance(c.func, ast.Name) and c.func.id in in_setup), None)
        if cold_in_setup is not None:
            name = cold_in_setup.func.id  # type: ignore[attr-defined]
            yield _compile_finding(ctx, region, cold_in_setup, name,
                                   f"`{name}` is jitted in the set-up string, which never calls it")
            continue
        timed_ids = {id(n) for n in timed}
        earlier_reading = read_earlier.get(id(region), set())
        warm: set[str] = set()
        for node in region.setup:
            for call in (n for n in walk_code(ctx.program, [node]) if isinstance(n, ast.Call)):
                warm |= reach.of_call(call)
        # a pass's own step before the occasional work some passes add (an evaluation every `n_save_step` steps)
        for call in sorted(timed, key=lambda c: _on_some_passes(ctx, c)):
            if id(call) in earlier_reading:
                warm |= reach.of_call(call)  # ran, and was read, before this figure's own calls
                continue
            anew = ctx.facts.compiled_anew(call)
            if anew:  # `lax.scan(jax.jit(step), ...)` outside jit: compiles on every run, warm-ups before it or not
                yield _compiled_anew_finding(ctx, region, call, anew[0])
                break
            cold = sorted(k for k in reach.of_call(call) - warm if not called_before(k, region, call, timed_ids))
            if not cold:
                continue
            handed = _handed_fresh(ctx, region, call, cold)
            if handed:
                yield from (_handed_finding(ctx, region, value, key) for value, key in handed)
                break
            yield _compile_finding(ctx, region, call, cold[0])
            break


def _hands(ctx: Context, call: ast.AST | None, key: str) -> bool:
    """``call`` hands the jitted callable ``key`` as one of its arguments (``bench(gen_jit, ids)``, ``bench(lambda x:
    fwd_jit(x), ids)``)."""
    if not isinstance(call, ast.Call):
        return False
    arguments = [*call.args, *(k.value for k in call.keywords)]
    return any(ctx.facts.jitted_key_of(n) == key for a in arguments for n in ast.walk(a) if isinstance(n, ast.expr))
def _jitted_in_setup(ctx: Context, region: TimedRegion) -> set[str]:
    """The names a ``timeit`` set-up string binds to a jit of a function and never calls (fenbux#7's setup
    ``from jax import jit ... jit_febux_test = jit(febux_test)``, then ``timeit.timeit('jit_febux_test(mean, sd,
    y_k).block_until_ready()', setup=..., number=1000)``, case 468): the timed statement's first run compiles, and
    the total holds it. The set-up's own imports name the jit (``from jax import jit``, ``import jax``), as do the
    file's."""
    if not region.harness or not region.setup or not region.label.startswith("timeit."):
        return set()
    jits = {"jax.jit"}
    for statement in region.setup:
        if isinstance(statement, ast.ImportFrom) and statement.module == "jax":
            jits |= {a.asname or a.name for a in statement.names if a.name == "jit"}
        elif isinstance(statement, ast.Import):
            jits |= {f"{a.asname or a.name}.jit" for a in statement.names if a.name == "jax"}
    bound: set[str] = set()
    called: set[str] = set()
    for statement in region.setup:
        for node in ast.walk(statement):
            if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                    and isinstance(node.value, ast.Call) and len(node.value.args) == 1
                    and (dotted(node.value.func) in jits or ctx.facts.is_jit(node.value.func))):
                bound.add(node.targets[0].id)
            elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
                called.add(node.func.id)
    return bound - called


def _handed_fresh(ctx: Context, region: TimedRegion, call: ast.Call, cold: list[str]) -> list[tuple[ast.expr, str]]:
    """The arguments that make the jitted functions ``call`` first runs in the timing helper ``region`` sits in, when
    every cold one is made where a caller hands it over: ``benchmark(jax.jit(partial(with_xla, use_file=True)))`` of
    ``def benchmark(function): timeit.repeat(lambda: jax.block_until_ready(function(x)), ...)`` (matlab4jax, case
    392). The helper is sound; the caller makes a new jitted object that nothing can have run, for that timing alone,
    so the compile is that caller's, and the finding goes where the wrapper is made, once per such caller. A jitted
    function made elsewhere and handed by name or through a transform (``eval(jax.grad(f_jit), ...)``, case 007) is
    read at the timed call, where its first run is."""
    if region.scope is None or ctx.facts.jitted_key(call) is not None or ctx.facts.local_def(call) is not None:
        return []
    inside = set(map(id, ctx.program.walk(region.scope)))
    found = [(v, k) for v in ctx.facts.passed_functions(call)
             if (k := ctx.facts.jitted_key_of(v)) in cold and id(v) not in inside]
    if {k for _, k in found} != set(cold) or not all(ctx.facts.jit_target(v) is not None for v, _ in found):
        return []
    return found


def _compiled_anew_finding(ctx: Context, region: TimedRegion, call: ast.Call, function: ast.expr) -> Diagnostic:
    what = f"`{short(function, 40)}`"
    return ctx.report(
        "LB103",
        call,
        f"{region.by} times a compile: `{short(call)}` runs outside jit and is handed {what}, a new function each "
        "time the statement runs, so JAX traces and compiles the loop again inside the timing",
        evidence=f"{what} is made in the call; JAX caches an eager loop's program per function object, so no earlier "
        "run of the statement warms this one",
        fix=f"step = {unparse(function)}  # made once, outside the timing\n"
        "run = jax.jit(lambda init: jax.lax.scan(step, init, ...))  # or jit the whole loop, and warm it up untimed",
    )


def _handed_finding(ctx: Context, region: TimedRegion, value: ast.expr, key: str) -> Diagnostic:
    site = ctx.facts.jitted.get(key) or ctx.facts.held_jits.get(key)
    helper = getattr(region.scope, "name", "the timing helper")
    where = f"jitted at {ctx.where(site.node)} (`{site.label}`)" if site is not None else "jitted where it is handed"
    what = "compile time is averaged in" if region.samples == "averaged" else "it includes tracing and XLA compilation"
    return ctx.report(
        "LB103",
        value,
        f"`{short(value)}` hands `{helper}` a jitted function nothing called before: {region.by} times its first "
        f"call, and {what}",
        evidence=f"`{key}` is {where} and not called before `{helper}` times it",
        fix=f"fn = {unparse(value)}\njax.block_until_ready(fn(...))  # warm-up: compiles, untimed\n{helper}(fn)",
    )


def _nested_jitted_defs(ctx: Context) -> dict[str, list[ast.AST]]:
    """Jitted callable -> the functions that define it anew on every call: a def decorated with a jit inside
    another function (BlackJAX's ``inference_loop``, whose ``@jax.jit def one_step`` is made by each call, case 360).
    A call of that outer function compiles a function no later call runs, so it warms nothing outside the outer
    function; a warm-up inside it still does."""
    found: dict[str, list[ast.AST]] = {}
    elsewhere: set[str] = set()
    for function, site in ctx.facts.jitted_defs.items():
        outer = ctx.program.parent(function)
        if isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) and site.direct \
                and any(site.node is d for d in function.decorator_list) \
                and isinstance(outer, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                and not _hands_out(ctx, outer, function.name):
            found.setdefault(function.name, []).append(outer)
        else:
            elsewhere.add(getattr(function, "name", ""))
    # a name also jitted once, at module level or by a call (`f = jax.jit(g)`), is that function too: not read
    elsewhere |= {k for k in ctx.facts.jitted if k in found and not any(
        isinstance(d, (ast.FunctionDef, ast.AsyncFunctionDef)) and d.name == k for d in ctx.facts.jitted_defs)}
    return {k: v for k, v in found.items() if k not in elsewhere}


def _hands_out(ctx: Context, outer: ast.AST, name: str) -> bool:
    """``outer`` returns the function ``name`` (a factory: ``def make(): @jax.jit def f(...): ...; return f``): its
    callers keep and call that one object, which a first call compiles for the next."""
    return any(isinstance(n, ast.Return) and n.value is not None
               and any(isinstance(m, ast.Name) and m.id == name for m in ast.walk(n.value))
               for n in local_walk(ctx.program, outer))


def _on_some_passes(ctx: Context, call: ast.Call) -> bool:
    """``call`` sits in an ``if`` inside the loop around it (``if step % n_save_step == 0: eval_loop(...)``): it runs
    on some passes, occasional work beside the step every pass runs (``state, metrics = train_step(state, batch)``).
    The first figure holds the compiles of both; the fix that matters for every later figure, and the one the figure
    is about, is the step's (mu_transformer's training loop, case 508: LB103 at ``train_step``)."""
    branched = False
    for ancestor in ctx.program.ancestors(call):
        if isinstance(ancestor, FUNCTIONS):
            return False
        if isinstance(ancestor, ast.If):
            branched = True
        elif isinstance(ancestor, LOOPS):
            return branched
    return False


def _averages_its_own_loop(ctx: Context, region: TimedRegion) -> bool:
    """A clock pair in a function called more than once that brackets a loop of its own and divides by its passes
    (mu_transformer's ``eval_loop``: ``start_time`` before ``for i in range(n)``, then ``secs_per_step=(end_time -
    start_time) / (i + 1)``, case 508): every call's figure is an average over its own steps, and the first call's
    holds the first step's compile, as the first figure of a pair in a loop does."""
    return any(isinstance(n, LOOPS) for n in walk_code(ctx.program, list(region.statements)))


def _times_a_parameter(ctx: Context, region: TimedRegion) -> bool:
    """``def bench(df): t0 = ...; df(x)`` called with a different jitted function each time: every call of
    ``bench`` times a first call; or ``fn(*inputs)`` of a parameter handed a transform of a jitted function
    (`_handed_jits`)."""
    calls = ctx.timed_calls(region)
    return any(ctx.facts.jitted_key_of(v) for c in calls for v in ctx.facts.passed_functions(c)) or any(
        _handed_jits(ctx, c.func, 0) for c in calls)


def _handed_jits(ctx: Context, func: ast.expr, depth: int) -> frozenset[str]:
    """The jitted functions a parameter called as ``func`` runs, when every call hands it a transform of one, written
    in the call or bound to the name handed, itself maybe a parameter so handed (climate_code_conversion's
    ``measure_time(fn, *inputs)`` handed ``vectorized_fn = jax.vmap(fn)`` of ``compare_cpu_gpu``'s own parameter,
    which its caller hands the jitted ``element_brent_with_sign_change``, case 517). A jit's compile for the shapes it
    is given happens on its first call through the transform as through the function itself."""
    if depth > 2 or not isinstance(func, ast.Name):
        return _NO_KEYS
    passed = ctx.facts.parameter_values(func) or []
    keys: set[str] = set()
    for value in passed:
        if depth and (key := ctx.facts.jitted_key_of(value)) is not None:
            keys.add(key)  # the outer parameter handed the jitted function itself
            continue
        held = ctx.facts.bindings.values_at(value.id, value) if isinstance(value, ast.Name) else [value]
        for v in held:
            if not (isinstance(v, ast.Call) and v.args and ctx.facts.is_jax_transform(v)):
                return _NO_KEYS
            inner = v.args[0]
            key = ctx.facts.jitted_key_of(inner)
            found = frozenset({key}) if key is not None else _handed_jits(ctx, inner, depth + 1)
            if not found:
                return _NO_KEYS
            keys |= found
    return frozenset(keys)


def _compiled_ahead(ctx: Context, call: ast.Call) -> frozenset[str]:
    """``f.lower(x)`` of ``f.lower(x).compile()``: the ahead-of-time compile of the jitted ``f`` for ``x``, which a
    later ``f(x)`` runs without compiling again (jax 0.10.2): a warm-up of ``f``, though it runs nothing."""
    func, parent = call.func, ctx.program.parent(call)
    if not (isinstance(func, ast.Attribute) and func.attr == "lower" and isinstance(parent, ast.Attribute)
            and parent.attr == "compile"):
        return _NO_KEYS
    key = ctx.facts.jitted_key_of(func.value)
    return frozenset({key}) if key is not None else _NO_KEYS


def _compiles_by_design(ctx: Context, region: TimedRegion) -> bool:
    """A loop whose variable goes into the timed call (``for n in sizes: t0 = ...; f(x, n)``) compiles for each
    new value: the sweep measures compilation, or each step is a new program; the first-call warning misleads. A
    variable that only counts the timed repeats (``[add_jitted() for _ in range(n)]``, Andy Jones's blog post, case
    412) builds no new program: the first pass still compiles inside the first figure."""
    loop = enclosing_loop(ctx.program, region.anchor)
    if not isinstance(loop, (ast.For, ast.AsyncFor)):
        return False
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    counts = {
        id(n) for c in ctx.timed_calls(region) if ctx.names.qualname(c.func) == "builtins.range" for n in ast.walk(c)
    }
    return any(
        isinstance(n, ast.Name) and n.id in bound and id(n) not in counts for n in ctx.timed_nodes(region)
    )


def _compile_finding(
    ctx: Context, region: TimedRegion, call: ast.Call, key: str, evidence: str | None = None
) -> Diagnostic:
    site = ctx.facts.jitted.get(key) or ctx.facts.held_jits.get(key)
    evidence = evidence or (
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


_WARM_UP_COMMENT = "# warm-up: compiles and fills caches outside the timing"


@never_hides_the_finding
def warm_up(ctx: Context, region: TimedRegion, call: ast.Call) -> Fix | None:
    """A blocked warm-up call on a line of its own before the timed region (out of any loop it can leave)."""
    editor = ctx.editor
    text = editor.source(call)
    if text is None or "\n" in text or _bound_in_region(ctx, region, call):
        return None
    line = _line_before(ctx, region, call)
    if line is None:
        return None
    imported = editor.import_for("jax", call)
    if imported is None:
        return None
    name, import_line = imported
    insert = editor.insert_lines_before(line, f"{name}.block_until_ready({text})  {_WARM_UP_COMMENT}")
    return as_fix(with_imports(editor, [import_line], insert), f"warm up `{short(call)}` before timing it")


def _bound_in_region(ctx: Context, region: TimedRegion, call: ast.Call) -> bool:
    """The call reads a name the timed code binds (an assignment before it, a lambda or comprehension variable)."""
    for ancestor in ctx.program.ancestors(call):
        if isinstance(ancestor, COMPREHENSIONS) or (isinstance(ancestor, ast.Lambda) and _has_parameters(ancestor)):
            return True
    used = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    return any(used & bound_names(item) for item in region.work)


def _has_parameters(lam: ast.Lambda) -> bool:
    a = lam.args
    return bool(a.posonlyargs or a.args or a.kwonlyargs or a.vararg or a.kwarg)


def _line_before(ctx: Context, region: TimedRegion, call: ast.Call) -> int | None:
    """The virtual line a warm-up goes before: the magic's line, or the statement that starts the timing,
    moved out of loops that do not bind the call's names."""
    program = ctx.program
    stmt = statement_of(ctx, region.anchor)
    if stmt is None:
        return None
    if is_marker(stmt):
        line = stmt.lineno
        return None if CELL_MAGIC_LINE.match(program.line_text(line)) else line
    used = {n.id for n in ast.walk(call) if isinstance(n, ast.Name)}
    target: ast.AST = stmt
    for ancestor in program.ancestors(stmt):
        if isinstance(ancestor, FUNCTIONS) or not isinstance(ancestor, (*LOOPS, ast.If, ast.With, ast.Try)):
            break
        if isinstance(ancestor, LOOPS):
            if used & bound_names(ancestor):
                break
            target = ancestor
    if not ctx.editor.starts_line(target):
        return None
    return target.lineno
