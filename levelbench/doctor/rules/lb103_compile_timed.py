"""LB103, compile-in-timing: the check and its fix; the rule's words are its catalogue entry.

    %time f(x)                      ->  jax.block_until_ready(f(x))  # warm-up ...
                                        %time f(x)
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator

from ..._values.intent import compilation_meant, lines_to_read, says_it_leaves_compilation_out
from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding, with_imports
from .._fixes import CELL_MAGIC_LINE, is_marker, statement_of, stored_names
from .._regions import TimedRegion, reported_at
from .._syntax import (
    COMPREHENSIONS, FUNCTIONS, LOOPS, enclosing_function, enclosing_loop, local_walk, position, running_function, short,
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


def check(ctx: Context) -> Iterator[Diagnostic]:
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
    calls_by_key: dict[tuple[int, str], list[tuple[tuple[int, int], ast.Call]]] = {}
    for node in ctx.program.of_type(ast.Call):
        keys = reach.of_call(node)
        if keys:
            scope = id(running_function(ctx.program, node))  # `timeit(lambda: f(x))` calls f where it stands
            for key in keys:
                calls_by_key.setdefault((scope, key), []).append((position(node), node))
    for calls in calls_by_key.values():
        calls.sort(key=lambda found: found[0])

    def called_in(scope: ast.AST | None, key: str, start: tuple[int, int], timed: ast.Call, timed_ids: set[int]) -> bool:
        for where, earlier in calls_by_key.get((id(scope), key), ()):
            if where >= start:
                return False
            if id(earlier) not in timed_ids and ctx.warms(earlier, timed):
                return True
        return False

    def called_before(key: str, region: TimedRegion, timed: ast.Call, timed_ids: set[int]) -> bool:
        if called_in(region.scope, key, region.start, timed, timed_ids):
            return True
        # a timing helper: warmed up before every place it is called (`f(x)` then `run_benchmark()`)
        sites = [s for s in ctx.facts.call_sites(region.scope)
                 if isinstance(p := ctx.program.parent(s), ast.Call) and p.func is s] if region.scope else []
        return bool(sites) and all(
            called_in(enclosing_function(ctx.program, s), key, position(s), timed, timed_ids) for s in sites
        )

    for region in candidates:
        timed = ctx.timed_calls(region)
        timed_ids = {id(n) for n in timed}
        warm: set[str] = set()
        for node in region.setup:
            for call in (n for n in walk_code(ctx.program, [node]) if isinstance(n, ast.Call)):
                warm |= reach.of_call(call)
        for call in timed:
            cold = sorted(k for k in reach.of_call(call) - warm if not called_before(k, region, call, timed_ids))
            if not cold:
                continue
            yield _compile_finding(ctx, region, call, cold[0])
            break


def _says_it_times_compilation(ctx: Context, region: TimedRegion) -> bool:
    """The user says the first call is timed on purpose, in the words `levelbench._values.intent` reads (the
    policy ``doctor --run`` applies too): ``%time f(x)  # measure compilation time``, ``# compile time`` right
    above the timing (the seed notebook's user timed its compile so and labelled it), ``first_call = ...``, the
    same words over a def whose body the timing opens, or its name; or a later timing of the same jitted
    function, in any function, is commented as the one without compilation (``# Now time it without
    compilation``): the pair shows the time with and without compiling, as QuantEcon's lectures do. A timing
    that repeats its call (a total over a loop) named ``jit_time`` names the jitted version, not its compile."""
    first, last = region.written_lines()
    reported = reported_at(ctx.program, region)  # `state.counters['jit_time'] = first_t - op_time`
    if first and compilation_meant(ctx.program.line_text, first, last, reported, repeated=region.samples == "averaged"):
        return True
    opening = _opened_function(ctx, region)
    if opening is not None and compilation_meant(ctx.program.line_text, opening.lineno, opening.lineno):
        return True  # `# --- First execution ---` over `def run_benchmark():` or a loop, or `def time_first_call():`
    if _timed_again_warm(ctx, region):
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


def _timed_again_warm(ctx: Context, region: TimedRegion) -> bool:
    """The same statement is timed again later, the same way and by a timing of its own, and this one's run warms
    the later one: the program times the call cold, then warm (``%%time`` of ``policy_iteration(household)`` twice,
    QuantEcon's 'we run it again to get rid of the compilation time'; ``with qe.Timer():`` twice), so the compile
    in the first figure is what it is read for. The arguments must be unchanged, or the later call compiles too;
    ``%time f(x)`` followed by ``%timeit f(x)`` is another kind of figure, read on its own (jax-ml/jax#4729)."""
    if not region.work:
        return False
    by_text, text_of = ctx.index("LB103 timings by what they time", lambda: _timings_by_text(ctx))
    same = by_text.get(text_of.get(id(region)), ())
    if len(same) < 2:
        return False
    first_calls = [c for c in ctx.timed_calls(region) if ctx.facts.jitted_key(c) is not None or ctx.facts.local_def(c)]
    if not first_calls:
        return False  # nothing here compiles for a later run to find warm
    calls_by_text = ctx.index("LB103 timed calls by text", dict)  # per region, filled as asked: not once per pair
    # the group is in program order: start at the first later timing rather than stepping over every earlier one
    for later in same[bisect.bisect_right(same, region.start, key=lambda r: r.start):]:
        if later.clock_node is not None and later.clock_node is region.clock_node:
            continue  # the same clock read again: the later figure still spans this run
        if _named_apart(region, later):
            continue  # `runtimes["compiled"] = ...`, then `runtimes["run_time"] = ...`: two quantities, not a repeat
        later_calls = calls_by_text.get(id(later))
        if later_calls is None:
            later_calls = calls_by_text[id(later)] = {unparse(c): c for c in ctx.timed_calls(later)}
        if all((other := later_calls.get(unparse(c))) is not None and ctx.warms(c, other) for c in first_calls):
            return True
    return False


def _named_apart(first: TimedRegion, later: TimedRegion) -> bool:
    """The two figures are stored under different names: the program reads them as two quantities, and the first
    one's name does not say it holds the compilation (`_says_it_times_compilation` read it), so its compile is not
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


_TimingText = tuple[int, str, tuple[str, ...]]  # a timing's scope (its id), how it is timed and its statements


def _timing_text(region: TimedRegion) -> _TimingText:
    """A timing as written: its scope, how it is timed (`%time f(x)` then `%timeit f(x)` reads two kinds of figure,
    not a cold and a warm run) and its statements."""
    return id(region.scope), region.label, tuple(unparse(s) for s in region.work)


def _timings_by_text(ctx: Context) -> tuple[dict[_TimingText, list[TimedRegion]], dict[int, _TimingText]]:
    """The program's timings grouped by `_timing_text`, each group in program order (by start), and each timing's
    text by its id: built once per program, not once per pair of timings."""
    found: dict[_TimingText, list[TimedRegion]] = {}
    text_of: dict[int, _TimingText] = {}
    for region in ctx.regions:
        if region.work:
            text = text_of[id(region)] = _timing_text(region)
            found.setdefault(text, []).append(region)
    for same in found.values():
        same.sort(key=lambda r: r.start)
    return found, text_of


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
    lines = lines_to_read(ctx.program.line_text, first, last)
    opening = _opened_function(ctx, region)
    if opening is not None:
        top = min([opening.lineno, *(d.lineno for d in getattr(opening, "decorator_list", ()))])
        lines += lines_to_read(ctx.program.line_text, top, top)
    return any(says_it_leaves_compilation_out(ctx.program.line_text(line)) for line in lines)


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
    stored = {
        n.id for item in region.work for n in ast.walk(item)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    return bool(used & stored)


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
            if used & stored_names(ancestor):
                break
            target = ancestor
    if not ctx.editor.starts_line(target):
        return None
    return target.lineno
