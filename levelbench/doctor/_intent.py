"""What a timing is for, in the program's own words and shape: a first call timed on purpose to measure compilation.

LB103 (compile in a timing) and LB104 (one sample) both ask it: a figure whose point is the compile is neither a
mistake about compilation nor a sample to repeat (warming it up would take out what it measures). The words are
read by `levelbench._values.intent`, as ``doctor --run`` reads them."""

from __future__ import annotations

import ast
import bisect
from collections.abc import Callable

from .._values.intent import compilation_meant, lines_to_read, says_it_compiles, says_it_leaves_compilation_out
from ._context import Context
from ._effects import calls_run_inside, is_wait
from ._program import Program
from ._regions import TimedRegion, reported_at
from ._syntax import bound_names, enclosing_function, enclosing_loop, parameter_names, position, unparse, walk_code


def times_compilation_on_purpose(ctx: Context, region: TimedRegion) -> bool:
    """The user says the first call is timed on purpose, in the words `levelbench._values.intent` reads (the
    policy ``doctor --run`` applies too): ``%time f(x)  # measure compilation time``, ``# compile time`` right
    above the timing (the seed notebook's user timed its compile so and labelled it), ``first_call = ...``, the
    same words over a def whose body the timing opens, or its name; or a later timing of the same jitted
    function, in any function, is commented as the one without compilation (``# Now time it without
    compilation``): the pair shows the time with and without compiling, as QuantEcon's lectures do. A timing
    that repeats its call (a total over a loop) named ``jit_time`` names the jitted version, not its compile. Or the
    code drops the compiled code of what it times just before (`_timed_after_a_clear`).
    Found once per region (`Context.per_region`): LB103 and LB104 both ask."""
    return ctx.per_region("intent: times compilation on purpose", region, _times_compilation_on_purpose)


def _times_compilation_on_purpose(ctx: Context, region: TimedRegion) -> bool:
    if says_it_times_compilation(ctx, region):  # `state.counters['jit_time'] = first_t - op_time`
        return True
    opening = _opened_function(ctx, region)
    if opening is not None and compilation_meant(ctx.program.line_text, opening.lineno, opening.lineno,
                                                 _docstring_lines(opening)):
        return True  # `# --- First execution ---` over `def run_benchmark():` or a loop, or `def time_first_call():`,
        # or a docstring that says so (`"""(first call incl. compile, mean of later calls)"""`, case 532)
    if _timed_again_warm(ctx, region) or _timed_after_a_clear(ctx, region):
        return True
    steady = ctx.index("LB103 steady timings", lambda: _steady_timings(ctx))
    if not steady:
        return False
    for call in ctx.timed_calls(region):
        if ctx.facts.jitted_key(call) is None:
            continue
        for later in steady.get(unparse(call.func), ()):
            restarted = later.clock_node is None or later.clock_node is not region.clock_node  # a clock of its own
            if later.start > region.start and restarted:
                return True
    return False


def repeated_right_after(ctx: Context, region: TimedRegion, first: ast.Call) -> bool:
    """The next timing in the same scope repeats ``first``, the call this one-run timing runs cold, written the
    same and warmed by it: ``start = time(); walk(n, t)...; end = time()`` and then ``%timeit walk(n, t)...``
    (Eric Ma's workshop notebook, case 380), ``timeit.repeat``, or a loop of timed runs. The one figure is the
    cold first call, and its repeats come right after: the catalogue's LB104 exception for a first call timed
    again warm. Whether that first figure's compile is a mistake is LB103's question, which the repeats do not
    settle (cases 020 and 244). A pair inside a loop over the things compared (``for f_ in [fn, jax.jit(fn), ...]:``)
    is one sample per thing: its first call is timed cold and the loop of runs right after it is its warm figure,
    the loop's passes each timing their own thing (numbax's mini-benchmark, case 460)."""
    if region.samples != "single" and not region.swept:
        return False
    later = ctx.index("LB104 next timing in scope", lambda: _next_timings(ctx)).get(id(region))
    if later is None or later.samples == "single" or later.swept:
        return False
    text = unparse(first)
    if any(unparse(c) == text and ctx.warms(first, c) for c in ctx.timed_calls(later)):
        return True
    run = the_run_holding(ctx, first)
    return run is not None and any(
        _the_same_run(run, c) and ctx.warms(run, c) for c in ctx.timed_calls(later)
    )


def the_run_holding(ctx: Context, first: ast.Call) -> ast.Call | None:
    """The call ``first`` is handed to, waits set aside: the run the timing is of, when what the rules read as its
    work is an argument built for it (``jax.block_until_ready(runner.collect(jax.random.PRNGKey(0)))``: the key is
    read as the work, the collect is the run). None when ``first`` is handed to no call but a wait."""
    node: ast.AST = first
    for ancestor in ctx.program.ancestors(first):
        if not isinstance(ancestor, ast.Call):
            if isinstance(ancestor, ast.stmt):
                return None
            node = ancestor
            continue
        if node is ancestor.func:
            return None
        if not is_wait(ctx, ancestor):
            return ancestor
        node = ancestor
    return None


def _the_same_run(run: ast.Call, other: ast.Call) -> bool:
    """``other`` runs the same callable as ``run`` with the same arguments by position and keyword, written another
    way (a fresh key for each run: ``runner.collect(jax.random.PRNGKey(repeat + 1))`` after
    ``runner.collect(jax.random.PRNGKey(0))``); whether it is warmed is `Context.warms`'s question."""
    return (
        unparse(run.func) == unparse(other.func)
        and len(run.args) == len(other.args)
        and [k.arg for k in run.keywords] == [k.arg for k in other.keywords]
        and not any(isinstance(a, ast.Starred) for a in [*run.args, *other.args])
    )


def _next_timings(ctx: Context) -> dict[int, TimedRegion]:
    """Each timing's id -> the next timing that starts after it in the same scope, with a clock of its own."""
    by_scope: dict[int, list[TimedRegion]] = {}
    for region in ctx.regions:
        by_scope.setdefault(id(region.scope), []).append(region)
    found: dict[int, TimedRegion] = {}
    for regions in by_scope.values():
        regions.sort(key=lambda r: r.start)
        for region in regions:
            found[id(region)] = next((r for r in regions if r.start > region.start and (
                r.clock_node is None or r.clock_node is not region.clock_node)), None)  # type: ignore[assignment]
    return {k: v for k, v in found.items() if v is not None}


def _timed_after_a_clear(ctx: Context, region: TimedRegion) -> bool:
    """A call the timing runs had its compiled code dropped earlier in the same function (``solve_j._clear_cache()``,
    ``jax.clear_caches()``), nothing ran it between the clear and the timing, and the clear undoes an earlier run of
    it or is the statement right before the timing: the code clears the cache to time the compile, which is what the
    figure is for (QuantEcon's ``t_j_cold``, case 346). A clear at the top of a script, far from a timing of code
    nothing ran before, is hygiene: that timing is a cold first call like any other."""
    for call in ctx.timed_calls(region):
        clear = ctx.warmth.last_clear(call, region.start, region.scope)
        if clear is None:
            continue
        runs = [n for n in ctx.program.of_type(ast.Call)
                if ctx.warmth.runs_the_same(n, call.func)]  # type: ignore[arg-type]
        if any(position(clear) < position(n) < region.start and enclosing_function(ctx.program, n) is region.scope
               for n in runs):
            continue
        if any(position(n) < position(clear) for n in runs) or _right_before(ctx, clear, region):
            return True
    return False


def _right_before(ctx: Context, node: ast.AST, region: TimedRegion) -> bool:
    """The statement holding ``node`` is the one right before the statement the timing starts at."""
    statement = next((a for a in [node, *ctx.program.ancestors(node)] if isinstance(a, ast.stmt)), None)
    found = ctx.program.statement_list(statement) if statement is not None else None
    if found is None:
        return False
    block, i = found
    return i + 1 < len(block) and position(block[i + 1]) == region.start


def says_it_times_compilation(ctx: Context, region: TimedRegion) -> bool:
    """The timing's own words say its figure is the compilation: a comment on its lines or right above them, or the
    statements that print or keep the interval (``print(f"JIT Time taken: {time.time() - start}")``,
    ``state.counters['jit_time'] = first_t - op_time``), read by `levelbench._values.intent` as ``doctor --run``
    reads them. Such a figure is one run of a one-time cost on purpose: warming it up or repeating it would measure
    something else."""
    first, last = region.written_lines()
    return bool(first) and bool(compilation_meant(
        timing_words(ctx, region), first, last, reported_at(ctx.program, region), repeated=region.samples == "averaged"))


def timing_words(ctx: Context, region: TimedRegion) -> Callable[[int], str]:
    """The program's lines as a timing's words are read (`compilation_meant`), less the comments inside the timing
    that stand right above a statement binding a jit wrapper (``# JIT compile the function`` over ``f_jit = jit(f)``):
    they name that step, and wrapping compiles nothing; what the figure is for is said elsewhere (case 524's ``JAX
    Time taken`` beside ``NP Time taken``, a first call timed against NumPy by mistake)."""
    first, last = region.written_lines()
    skipped: set[int] = set()
    for node in ctx.program.of_type(ast.Assign):
        if not (first < node.lineno <= last) or ctx.facts.jit_target(node.value) is None:  # type: ignore[attr-defined]
            continue
        above = node.lineno - 1
        while above > first and ctx.program.line_text(above).strip().startswith("#"):
            skipped.add(above)
            above -= 1
    if not skipped:
        return ctx.program.line_text
    return lambda number: "" if number in skipped else ctx.program.line_text(number)


def _opened_function(ctx: Context, region: TimedRegion) -> ast.AST | None:
    """The def or loop whose body the timing opens (its first statement, after a docstring and ``global`` lines): the
    words above it (and a def's name) say what the timing is, as they would right above the timing."""
    function = region.scope
    first, _ = region.written_lines()
    loop = enclosing_loop(ctx.program, region.anchor)
    if first and isinstance(loop, (ast.For, ast.AsyncFor, ast.While)) and loop.body and loop.body[0].lineno == first:
        return loop  # `# --- First execution ---` over `for _ in range(5):` whose body the clock pair opens
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or not first:
        return None
    body = [s for s in function.body if not isinstance(s, (ast.Global, ast.Nonlocal))
            and not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant) and isinstance(s.value.value, str))]
    return function if body and body[0].lineno == first else None


def _docstring_lines(opening: ast.AST) -> range:
    """The lines of the docstring of the def ``opening`` (none for a loop or a def without one): the function's own
    words for what the timing its body opens measures, as a comment above the def would say it (ChemEx-JAX's
    ``def timed(function, *args)`` documented as '(first call incl. compile, mean of ``repeat`` later calls)', whose
    body starts by timing the first call alone, case 532)."""
    body = getattr(opening, "body", None)
    if not isinstance(opening, (ast.FunctionDef, ast.AsyncFunctionDef)) or not body:
        return range(0)
    first = body[0]
    if not (isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str)):
        return range(0)
    return range(first.lineno, (first.end_lineno or first.lineno) + 1)


def _timed_again_warm(ctx: Context, region: TimedRegion) -> bool:
    """The same statement is timed again later, the same way and by a timing of its own, and this one's run warms
    the later one: the program times the call cold, then warm (``%%time`` of ``policy_iteration(household)`` twice,
    QuantEcon's 'we run it again to get rid of the compilation time'; ``with qe.Timer():`` twice), so the compile
    in the first figure is what it is read for. The arguments must be unchanged, or the later call compiles too;
    ``%time f(x)`` followed by ``%timeit f(x)`` is another kind of figure, read on its own (jax-ml/jax#4729)."""
    if not region.work:
        return False
    by_text, text_of, runs_at = ctx.index("LB103 timings by what they time", lambda: _timings_by_text(ctx))
    same = by_text.get(text_of.get(id(region)), ())
    if len(same) < 2:
        return False
    first_calls = [c for c in ctx.timed_calls(region) if ctx.facts.jitted_key(c) is not None or ctx.facts.local_def(c)
                   or _compiles_eagerly(ctx, c)]
    if not first_calls:
        return False  # nothing here compiles for a later run to find warm
    calls_by_text = ctx.index("LB103 timed calls by text", dict)  # per region, filled as asked: not once per pair
    # the group is in program order: start at the first later timing rather than stepping over every earlier one
    for later in same[bisect.bisect_right(same, runs_at[id(region)], key=lambda r: runs_at[id(r)]):]:
        if later.clock_node is not None and later.clock_node is region.clock_node:
            continue  # the same clock read again: the later figure still spans this run
        if _named_apart(region, later):
            continue  # `runtimes["compiled"] = ...`, then `runtimes["run_time"] = ...`: two quantities, not a repeat
        apart = later.scope is not region.scope
        if apart and _rebound_between(ctx, region, runs_at[id(region)][0], runs_at[id(later)][0]):
            continue  # a helper's timing and one written at its caller read a name bound again between them
        later_calls = calls_by_text.get(id(later))
        if later_calls is None:
            later_calls = calls_by_text[id(later)] = {unparse(c): c for c in ctx.timed_calls(later)}
        if all((other := later_calls.get(unparse(c))) is not None and ctx.warms(c, other) for c in first_calls):
            return True
    return False


def _compiles_eagerly(ctx: Context, call: ast.Call) -> bool:
    """A JAX operation called outside any jit (``jnp.dot(x, x.T)``): JAX compiles it for its shapes at the first
    call and runs the cached executable after (case 197), so timing it cold and then warm is the same reading as for
    a jitted function (case 305's '1st run' and '2nd run' cells)."""
    callees = [call.func, *ctx.facts.callee_values(call.func)]  # `ops["dot"](x, y)` with `ops = {"dot": jnp.dot}`
    return any((ctx.names.qualname(f) or "").startswith(_EAGER_MODULES) for f in callees)


_EAGER_MODULES = ("jax.numpy.", "jax.lax.", "jax.nn.", "jax.scipy.")


def _named_apart(first: TimedRegion, later: TimedRegion) -> bool:
    """The two figures are stored under different names: the program reads them as two quantities, and the first
    one's name does not say it holds the compilation (`times_compilation_on_purpose` read it), so its compile is not
    what it is kept for. Printed, or stored under the same name, the figures are one measurement made twice."""
    names = _figure_name(first), _figure_name(later)
    return None not in names and names[0] != names[1]


def _figure_name(region: TimedRegion) -> str | None:
    """Where the statement that subtracts the readings stores the figure (``dt``, ``runtimes["compiled"]``)."""
    closing = region.closing
    if isinstance(closing, ast.Assign):
        return " = ".join(unparse(t) for t in closing.targets)
    if isinstance(closing, (ast.AnnAssign, ast.AugAssign)):
        return unparse(closing.target)
    return None


_TimingText = tuple[int, str, tuple[str, ...]]  # where a timing runs (a scope's id), how it is timed, its statements
_RunsAt = tuple[tuple[int, int], tuple[int, int]]  # where it runs (its start, or its helper's call), then its start


def _timing_text(ctx: Context, region: TimedRegion) -> tuple[_TimingText, _RunsAt]:
    """A timing as written, and where it runs in program order: its scope, how it is timed (`%time f(x)` then
    `%timeit f(x)` reads two kinds of figure, not a cold and a warm run) and its statements. A timing in a helper
    the program calls once (``def run_benchmark(): t0 = time(); jnp.dot(x, x.T)...`` then ``run_benchmark()``)
    runs where that call is, in the caller's scope, when its statements read none of the helper's own names: it
    times the same values a timing written at the call would."""
    text = region.label, tuple(unparse(s) for s in region.work)
    call = _single_call(ctx, region.scope)
    if call is not None and not _reads_own_names(ctx, region):
        return (id(enclosing_function(ctx.program, call)), *text), (position(call), region.start)
    return (id(region.scope), *text), (region.start, region.start)


def _single_call(ctx: Context, function: ast.AST | None) -> ast.Call | None:
    """The one call of the local def ``function``, when the program runs it once (`Facts.called_repeatedly`)."""
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or ctx.facts.called_repeatedly(function):
        return None
    sites = ctx.facts.call_sites(function)
    if len(sites) != 1:
        return None
    call = ctx.program.parent(sites[0])
    return call if isinstance(call, ast.Call) and call.func is sites[0] else None


def _reads_own_names(ctx: Context, region: TimedRegion) -> bool:
    """The timed statements read a parameter or a local variable of the function they are in."""
    own = parameter_names(region.scope) | bound_names(region.scope)  # type: ignore[arg-type]
    return any(
        isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in own
        for n in walk_code(ctx.program, list(region.work))
    )


def _rebound_between(ctx: Context, region: TimedRegion, first: tuple[int, int], second: tuple[int, int]) -> bool:
    """A name the timed statements of ``region`` read is stored to between the two runs (anywhere in the program
    text between them: a store elsewhere only keeps the finding). ``indices = jnp.array(indices)`` or
    ``lapl = jax.jit(...)`` between a helper's run and the same statements timed at its caller: the two time other
    values (cases 082 and 244, written with a helper). Timings in one scope are asked through `Context.warms`, which
    follows their names; a helper's body runs at its call, which that order does not see."""
    walked = walk_code(ctx.program, list(region.work))
    read = {n.id for n in walked if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load)}
    return any(
        node.id in read and isinstance(node.ctx, ast.Store) and first < position(node) < second
        for node in ctx.program.of_type(ast.Name)  # type: ignore[attr-defined]
    )


def _timings_by_text(
    ctx: Context,
) -> tuple[dict[_TimingText, list[TimedRegion]], dict[int, _TimingText], dict[int, _RunsAt]]:
    """The program's timings grouped by `_timing_text`, each group in the order they run, each timing's text by its
    id, and where each runs: built once per program, not once per pair of timings."""
    found: dict[_TimingText, list[TimedRegion]] = {}
    text_of: dict[int, _TimingText] = {}
    runs_at: dict[int, _RunsAt] = {}
    for region in ctx.regions:
        if region.work:
            text, runs_at[id(region)] = _timing_text(ctx, region)
            text_of[id(region)] = text
            found.setdefault(text, []).append(region)
    for same in found.values():
        same.sort(key=lambda r: runs_at[id(r)])
    return found, text_of, runs_at


def _steady_timings(ctx: Context) -> dict[str, list[TimedRegion]]:
    """callee -> the timings commented as running without compilation that call it, in any function: the cold
    timing may sit in a helper (``def run_benchmark(): %time f(x)``) and its steady twin at module level, or the
    steady one in a pytest-benchmark test. Found once per program, so that a file of many timings does not
    compare every pair of them."""
    found: dict[str, list[TimedRegion]] = {}
    for region in ctx.regions:
        if _said_steady(ctx, region):
            for call in ctx.timed_calls(region):
                found.setdefault(unparse(call.func), []).append(region)
    return found


def _said_steady(ctx: Context, region: TimedRegion) -> bool:
    """A comment on the timing's lines, or right above them in its cell, says it runs without compilation; or right
    above the def (and its decorators) or loop whose body the timing opens (a registered google_benchmark function)."""
    first, last = region.written_lines()
    if not first:
        return False
    lines = lines_to_read(ctx.program.line_text, first, last, region.subtraction_lines())
    opening = _opened_function(ctx, region)
    if opening is not None:
        top = min([opening.lineno, *(d.lineno for d in getattr(opening, "decorator_list", ()))])
        lines += lines_to_read(ctx.program.line_text, top, top)
    return any(says_it_leaves_compilation_out(ctx.program.line_text(line)) for line in lines)


def compiled_by_its_warm_up(ctx: Context, call: ast.Call) -> bool:
    """The callable ``call`` runs is run before it, outside every timing, in the same function (or at the top level
    of the same script or notebook), by a statement under a comment that says the run compiles it (``# make sure the
    model is compiled`` over ``task.eval_ensemble_train_batch(models, n, batch_size, key)``, feedbax's notebook 15,
    case 480): the file's own words that the callable is a compiled program, whatever library built it."""
    text = unparse(call.func)
    earlier = ctx.index("intent: untimed runs said to compile", lambda: _runs_said_to_compile(ctx)).get(text, ())
    scope = enclosing_function(ctx.program, call)
    return any(position(run) < position(call) and enclosing_function(ctx.program, run) is scope for run in earlier)


def _runs_said_to_compile(ctx: Context) -> dict[str, list[ast.Call]]:
    """The callee's text -> the untimed calls that a statement of their own makes under a comment saying it compiles."""
    found: dict[str, list[ast.Call]] = {}
    for stmt in ctx.program.of_type(ast.Expr, ast.Assign):
        value = stmt.value  # type: ignore[attr-defined]
        if not isinstance(value, ast.Call) or id(value) in ctx.timed_ids:
            continue
        above = stmt.lineno - 1
        while above > 0 and (line := ctx.program.line_text(above).strip()).startswith("#") \
                and not line.startswith("# %%"):
            if says_it_compiles(line):
                found.setdefault(unparse(value.func), []).append(value)
                break
            above -= 1
    return found


_RETURNS_ITS_FIGURE = frozenset({"timeit.timeit", "timeit.repeat", "timeit.Timer", "torch.utils.benchmark.Timer"})
"""Harnesses whose figure is only the value they return (no printout, no record of their own)."""


def figure_never_read(ctx: Context, region: TimedRegion) -> bool:
    """A harness timing inside a function whose figure nothing reads: the harness's value (``timeit.timeit(...)``, or
    what a ``torch.utils.benchmark.Timer`` object's ``timeit`` gives) is dropped or bound to names the function never
    reads again, and never returned. It runs the code to warm it (GS_SOC's ``warmup()``: ``res = t0.timeit(1000).mean``
    and nothing more, case 512), not to measure it: what a figure would say about the code is no question here."""
    if region.label not in _RETURNS_ITS_FIGURE or region.scope is None or isinstance(region.scope, ast.Lambda):
        return False  # `%timeit` prints its figure, pytest-benchmark and asv record theirs: dropped is not unread
    return _value_unread(ctx, region.anchor, region.scope, 0)


def _value_unread(ctx: Context, node: ast.AST, scope: ast.AST, depth: int) -> bool:
    """The value ``node`` computes, followed through attribute reads, calls of it and subscripts (``t.timeit(10).mean``),
    is dropped or held only by names ``scope`` never reads (a harness object, by names whose every read is so)."""
    if depth > 3:
        return False
    top = node
    parent = ctx.program.parent(top)
    while (isinstance(parent, (ast.Attribute, ast.Subscript)) and parent.value is top) or (
            isinstance(parent, ast.Call) and parent.func is top):
        top, parent = parent, ctx.program.parent(parent)
    if isinstance(parent, ast.Expr):
        return True
    if not (isinstance(parent, ast.Assign) and parent.value is top
            and all(isinstance(t, ast.Name) for t in parent.targets)):
        return False
    names = {t.id for t in parent.targets}  # type: ignore[attr-defined]
    reads = [n for n in ast.walk(scope) if isinstance(n, ast.Name) and n.id in names and isinstance(n.ctx, ast.Load)]
    return all(enclosing_function(ctx.program, n) is scope and _value_unread(ctx, n, scope, depth + 1) for n in reads)


def host_input_timed_apart(ctx: Context, call: ast.Call, index: int) -> bool:
    """The NumPy array ``call`` is handed at position ``index`` has a device copy (``x_dev = jax.device_put(x)``,
    or ``x_dev, y_dev = jax.device_put((x, y))``) that the program hands, at the same position, to the same callable
    in another timed call: the two figures are the device-resident run and the host-input run, and the copy in the
    second is what it is timed for (AP6YC's cvi benchmark, ``resident_ms`` beside ``host_input_ms``, under a
    docstring that says 'device placement is outside resident timings', case 533; the reading of an explicit transfer
    timed alone, 036 and 243)."""
    argument = call.args[index] if index < len(call.args) else None
    if not isinstance(argument, ast.Name):
        return False
    copies = ctx.index("intent: device copies of host arrays", lambda: _device_copies(ctx)).get(argument.id, set())
    if not copies:
        return False
    callee = unparse(call.func)
    for other in ctx.index("intent: calls timed, and those they run", lambda: _every_timed_call(ctx)):
        if other is call or unparse(other.func) != callee or index >= len(other.args):
            continue
        handed = other.args[index]
        if isinstance(handed, ast.Name) and handed.id in copies:
            return True
    return False


def _device_copies(ctx: Context) -> dict[str, set[str]]:
    """Host name -> the names bound to its device copy by ``jax.device_put`` (alone, or element by element of a
    tuple put at once), when the program keeps both: ``x = device_put(x)`` replaces the host array (JAX's
    quickstart, case 018, whose NumPy timing is the copy to take out, LB115)."""
    copies: dict[str, set[str]] = {}
    for node in ctx.program.of_type(ast.Assign):
        value = node.value  # type: ignore[attr-defined]
        if not (isinstance(value, ast.Call) and len(value.args) == 1
                and ctx.names.qualname(value.func) == "jax.device_put") or len(node.targets) != 1:  # type: ignore[attr-defined]
            continue
        target, put = node.targets[0], value.args[0]  # type: ignore[attr-defined]
        pairs = zip(target.elts, put.elts) if isinstance(target, ast.Tuple) and isinstance(put, (ast.Tuple, ast.List)) \
            and len(target.elts) == len(put.elts) else [(target, put)]
        for device, host in pairs:
            if isinstance(device, ast.Name) and isinstance(host, ast.Name) and device.id != host.id:
                copies.setdefault(host.id, set()).add(device.id)  # `x = device_put(x)` keeps no host twin (018)
    return copies


def _every_timed_call(ctx: Context) -> list[ast.Call]:
    """Every call a timing makes, and those the local functions it calls make as it runs them (`calls_run_inside`)."""
    found: list[ast.Call] = []
    for region in ctx.regions:
        for call in ctx.timed_calls(region):
            found.append(call)
            found.extend(calls_run_inside(ctx, call))
    return found
