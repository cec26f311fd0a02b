"""LB104, single-timing-sample: the check and its fix; the rule's words are its catalogue entry.

    start = time.time()                          y = f(x)
    y = f(x)                                 ->  elapsed = min(timeit.repeat(lambda: f(x), number=1, repeat=5))
    print(time.time() - start)                   print(elapsed)
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Edit, Fix
from .._edits import as_fix, never_hides_the_finding, parses_to, with_imports
from .._effects import is_wait, only_logs_its_interval
from .._fixes import assigned_name, pair
from .._names import dotted
from .._intent import repeated_right_after, the_run_holding, times_compilation_on_purpose
from .._iteration import TIMEIT_HARNESSES, calls_running_once, harness_calls_running_once
from .._regions import TimedRegion, decorated_timings
from .._suppress import is_file_pragma
from .._syntax import (
    COMPREHENSIONS, FUNCTIONS, LOOPS, SCOPES, enclosing_function, enclosing_loop, local_walk, position, short, unparse,
    walk_code,
)

CODE = "LB104"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB104: one clock reading around one run of framework code."""
    for region in ctx.regions:
        yield from _decorated_samples(ctx, region)
        one_sample = region.samples == "single" or region.swept  # a sweep times each value once
        once_by = None if one_sample else _run_once_by_a_caller(ctx, region)  # `benchmark(params, 1000, 1)`
        # `%time` is left out: IPython's one-run readout announces its one figure (its catalogue entry)
        if not (one_sample or once_by) or not (
            region.clocks or region.label in ("timeit.timeit", "%timeit") or region.timer_block
            or (once_by and region.label in TIMEIT_HARNESSES)  # `timeit.repeat(..., repeat=repeat)` given 1 (case 443)
        ):
            continue
        timed = ctx.timed_nodes(region)
        work_calls = [
            n for n in timed if isinstance(n, ast.Call) and (ctx.does_framework_work(n) or _handed_work(ctx, n))
        ]
        if not work_calls:
            work_calls = _waited_results(ctx, region)
        if not work_calls:
            continue
        first = next((c for c in work_calls if not is_wait(ctx, c)), work_calls[0])
        warmed = _called_before(ctx, region, first)
        if not warmed and (times_compilation_on_purpose(ctx, region) or repeated_right_after(ctx, region, first)):
            continue  # a compile timed on purpose, once, or repeated right after: a warm-up takes out what it is for
        run = the_run_holding(ctx, first) if warmed else None
        if run is not None and not _called_before(ctx, region, run) and repeated_right_after(ctx, region, first):
            continue  # the key built for a run is made before, the run is not: its first run, timed again warm (491)
        if only_logs_its_interval(ctx, region):
            continue  # a progress line about an activity (`with time_activity("final eval"):`), not a measurement
        clock = region.clocks[0] + "()" if region.clocks else region.label
        how = (
            f"{clock} is read once before and once after" if region.clocks
            else f"`{region.label}` times one run of" if region.timer_block
            else "-n1 -r1 times" if region.label == "%timeit" else "number=1 times"
        )
        message = f"single timing sample: {how} `{short(first)}`"
        if region.swept:
            message += f", once for each value of `{region.swept}`"
        if once_by is not None and region.label in TIMEIT_HARNESSES:
            message += f" once, as `{short(once_by[0])}` ({ctx.where(once_by[0])}) calls it (`{once_by[1]}`)"
        elif once_by is not None:
            message += f" in a loop that `{short(once_by[0])}` ({ctx.where(once_by[0])}) runs once (`{once_by[1]}`)"
        if not warmed:
            message += _warm_up_words(ctx, region, first, work_calls)
        anchor = region.statements[0] if region.clocks or region.timer_block else region.anchor
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


def _run_once_by_a_caller(ctx: Context, region: TimedRegion) -> tuple[ast.Call, str] | None:
    """A call of the region's function that makes the one loop between its clocks run once, with its words
    (``n_runs=1``; `calls_running_once`): that call's figure is one run, whatever the loop is for. Only a timing
    of its own (no loop around it in its function) whose loop is all the repetition it has. For a ``timeit``
    harness, a call that gives every count it reads 1 (`harness_calls_running_once`)."""
    if enclosing_loop(ctx.program, region.anchor) is not None:
        return None
    if region.label in TIMEIT_HARNESSES and isinstance(region.anchor, ast.Call):
        found = harness_calls_running_once(ctx.facts, region.anchor)  # `time_it_measure(bench, repeat=1, number=1)`
        return found[0] if found else None
    if not (region.clocks or region.timer_block):
        return None
    loops = [n for n in walk_code(ctx.program, list(region.statements)) if isinstance(n, (*LOOPS, *COMPREHENSIONS))]
    if len(loops) != 1:
        return None
    found = calls_running_once(ctx.facts, loops[0])
    return found[0] if found else None


def _waited_results(ctx: Context, region: TimedRegion) -> list[ast.Call]:
    """The timed calls whose result the region waits for with ``block_until_ready`` (``result = estimate(Y, W)``,
    then ``result.tau.block_until_ready()``, case 310): the wait says the result is a JAX value, whatever library
    the callee comes from."""
    waited: set[str] = set()
    for call in ctx.timed_calls(region):
        if not is_wait(ctx, call):
            continue
        if isinstance(call.func, ast.Attribute) and call.func.attr == "block_until_ready":
            read = [call.func.value]
        elif ctx.names.qualname(call.func) == "jax.block_until_ready":
            read = list(call.args)
        else:
            continue
        waited |= {n.id for r in read for n in ast.walk(r) if isinstance(n, ast.Name)}
    found: list[ast.Call] = []
    for node in ctx.timed_nodes(region):
        if (
            isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1
            and isinstance(node.targets[0], ast.Name) and node.targets[0].id in waited
        ):
            found.append(node.value)
    return found


def _handed_work(ctx: Context, call: ast.Call) -> bool:
    """A call of a parameter that the file's call sites hand a local function doing framework work: ``func()`` in
    ``time_func(func, name)``, called with ``jax_jit`` (case 303). The helper times that work once per call."""
    values = ctx.facts.parameter_values(call.func)
    return any(
        isinstance(v, ast.Name) and (function := ctx.facts.function_of(v)) is not None and ctx.function_works(function)
        for v in values or ()
    )


def _decorated_samples(ctx: Context, region: TimedRegion) -> Iterator[Diagnostic]:
    """Each kept figure of a timing decorator is one sample: ``torch_time = time_torch(...)`` under ``@timed``."""
    decorator = enclosing_function(ctx.program, region.scope) if region.scope is not None else None
    for call in decorated_timings(ctx.program, ctx.facts, region):
        if not ctx.does_framework_work(call):
            continue
        clock = region.clocks[0] + "()"
        yield ctx.report(
            "LB104",
            call,
            f"single timing sample: `@{getattr(decorator, 'name', '')}` reads {clock} once before and once after"
            f" one run of `{short(call)}`",
            evidence=f"the decorator's wrapper times one call per call ({ctx.where(region.anchor)}): compile,"
            " cache and allocation costs and machine noise all land in the one number",
            fix=(
                f"import levelbench\nprint(levelbench.measure(lambda: {unparse(call)}))"
                "  # warm-up, repeats, median and spread"
            ),
        )


def _called_before(ctx: Context, region: TimedRegion, call: ast.Call) -> bool:
    """A call of the same callee, in the region's function and before it, warms ``call`` up (`Context.warms`); so
    does a call of the callable the harness is handed (``run()`` before ``timeit.timeit(run, number=1)``)."""
    calls = ctx.index("LB104 calls by callee", lambda: _CallsByCallee(ctx))
    same = calls.of(call.func, region.scope)  # in program order: only those before the region are asked
    if any(ctx.warms(c, call) for c in same[:bisect.bisect_left(same, region.start, key=position)]):
        return True
    # `timeit.timeit(run, ...)`, `timeit.timeit(lambda: run())`: the callable handed to the harness
    handed = [
        s.body.func if isinstance(s, ast.Lambda) and isinstance(s.body, ast.Call) else s for s in region.statements
    ]
    handed = [s for s in handed if isinstance(s, ast.Name)]
    if any((found := calls.of(s, region.scope)) and position(found[0]) < region.start for s in handed):
        return True
    # an earlier harness ran the same callable (`timeit.timeit(solve_, number=1)` twice: the first run warms)
    return any(
        r.scope is region.scope and r.start < region.start
        and ctx.facts.callee(earlier) == ctx.facts.callee(call) and ctx.warms(earlier, call)
        for r, earlier in ctx.harness_runs
    )


def _warm_up_words(ctx: Context, region: TimedRegion, first: ast.Call, work_calls: list[ast.Call]) -> str:
    """What the message says of warm-ups when ``first`` has none before it in the region's function: that, unless the
    callers hand a parameter the region calls a function they ran before (`_warmed_where_handed`): a warm-up of the
    setting that hands it, which the message names beside the call that still runs cold (case 310)."""
    for call in ctx.timed_calls(region):
        handed = _warmed_where_handed(ctx, call)
        if handed is None:
            continue
        warm = f"`{handed}` is run before it is handed over for `{short(call.func)}` (a warm-up of that setting)"
        if call is not first:
            return f", with no warm-up run before it; {warm}"
        cold = next((c for c in work_calls if c is not first and not is_wait(ctx, c)
                     and not _called_before(ctx, region, c)), None)
        return f"; {warm}" + (f", `{short(cold)}` has no warm-up run before it" if cold is not None else "")
    return ", with no warm-up run before it"


def _warmed_where_handed(ctx: Context, call: ast.Call) -> str | None:
    """The name the callers hand for the parameter ``call`` calls, when each caller runs it before handing it over:
    it calls that name earlier in its own function, or binds it from a local function that runs the function it
    returns (mcnnm's ``compiled_fn, compilation_time = compile_estimate(N, T)``, whose body calls
    ``compiled_estimate(Y, W)`` and returns it, then ``run_estimate(..., pre_compiled_fn=compiled_fn)``, case 310).
    None when the callee is no parameter, or when any caller hands something it did not run."""
    values = ctx.facts.parameter_values(call.func)
    if not values or not all(isinstance(v, ast.Name) for v in values):
        return None
    names = {v.id for v in values}  # type: ignore[attr-defined]
    if len(names) != 1 or not all(_ran_before_handing(ctx, v) for v in values):  # type: ignore[arg-type]
        return None
    return names.pop()


def _ran_before_handing(ctx: Context, handed: ast.Name) -> bool:
    """``handed`` was called before this point in its function, or bound there from a local function that calls the
    value it returns for it."""
    scope = enclosing_function(ctx.program, handed)
    calls = ctx.index("LB104 calls by callee", lambda: _CallsByCallee(ctx)).of(handed, scope)
    if any(position(c) < position(handed) for c in calls):
        return True
    body = getattr(scope, "body", None) or getattr(ctx.program.tree, "body", [])
    for node in walk_code(ctx.program, body):
        if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and len(node.targets) == 1
                and position(node) < position(handed)):
            continue
        target = node.targets[0]
        index = None if isinstance(target, ast.Name) and target.id == handed.id else next(
            (k for k, t in enumerate(getattr(target, "elts", [])) if isinstance(t, ast.Name) and t.id == handed.id),
            -1,
        )
        if index == -1:
            continue
        factory = ctx.facts.local_def(node.value)
        if factory is not None and _runs_what_it_returns(ctx, factory, index):
            return True
    return False


def _runs_what_it_returns(ctx: Context, function: ast.AST, index: int | None) -> bool:
    """Every ``return`` of ``function`` gives a name (element ``index`` of a returned tuple) that the function calls
    before returning it: ``compiled_estimate(Y, W)`` timed, then ``return compiled_estimate, compilation_time``."""
    walked = list(local_walk(ctx.program, function))
    returns = [n for n in walked if isinstance(n, ast.Return) and n.value is not None]
    if not returns:
        return False
    for ret in returns:
        value = ret.value if index is None else (
            ret.value.elts[index] if isinstance(ret.value, ast.Tuple) and index < len(ret.value.elts) else None
        )
        if not isinstance(value, ast.Name) or not any(
            isinstance(n, ast.Call) and isinstance(n.func, ast.Name) and n.func.id == value.id
            and position(n) < position(ret)
            for n in walked
        ):
            return False
    return True


class _CallsByCallee:
    """The calls of each callee (as written: ``f``, ``model.apply``, ``jax.jit(f)``) in each function, in order.

    The calls are grouped by callee once; they are sorted by function when that callee is first asked about (a
    long file has tens of thousands of calls, and asks about the callees of its single-sample regions only)."""

    def __init__(self, ctx: Context) -> None:
        self.program = ctx.program
        self.calls: dict[str | None, list[ast.Call]] = {}  # by dotted callee; None: the others (`jax.jit(f)(x)`)
        for node in ctx.program.of_type(ast.Call):
            self.calls.setdefault(dotted(node.func), []).append(node)  # type: ignore[attr-defined]
        self.by_scope: dict[str, dict[int, list[ast.Call]]] = {}  # callee -> id(function) -> its calls, in order
        self.others: dict[str, list[ast.Call]] | None = None  # the calls of bucket None, by callee as written

    def of(self, func: ast.expr, scope: ast.AST | None) -> list[ast.Call]:
        """The calls of the callee ``func`` in ``scope`` (None: module level), in program order."""
        text = unparse(func)
        if text not in self.by_scope:
            name = dotted(func)
            if name is not None:
                calls = self.calls.get(name, [])
            else:  # the other callees written out once, the first time one is asked about
                if self.others is None:
                    self.others = {}
                    for c in self.calls.get(None, []):
                        self.others.setdefault(unparse(c.func), []).append(c)
                calls = self.others.get(text, [])
            grouped: dict[int, list[ast.Call]] = {}
            for node in sorted(calls, key=position):
                grouped.setdefault(id(enclosing_function(self.program, node)), []).append(node)
            self.by_scope[text] = grouped
        return self.by_scope[text].get(id(scope), [])


@never_hides_the_finding
def repeat_timing(ctx: Context, region: TimedRegion) -> Fix | None:
    """One clock pair around one statement -> the statement stays as the warm-up, and the timing is the
    best of 5 runs by ``timeit.repeat`` (or ``levelbench.measure``'s median when levelbench is imported)."""
    found = pair(ctx, region)
    if found is None or found.subtraction is None or region.before_clock or len(region.statements) != 1:
        return None
    block, editor = found.block, ctx.editor
    work = region.statements[0]
    if work is not block[found.start + 1]:
        return None
    expr = _timed_work(ctx, work)
    if expr is None:
        return None
    start_stmt = block[found.start]
    if found.end_assignment is None and found.end != found.start + 2:
        return None
    if found.end_assignment is not None and found.end_assignment is not block[found.start + 2]:
        return None
    var = assigned_name(start_stmt)  # type: ignore[arg-type]
    uses = [found.subtraction.right] + ([found.subtraction.left] if found.end_assignment is not None else [])
    if _read_elsewhere(ctx, start_stmt, var, uses) or (
        found.end_assignment is not None and _read_elsewhere(ctx, found.end_assignment, assigned_name(found.end_assignment), uses)
    ):
        return None
    text = editor.source(expr)
    if text is None or not _a_lambda_returns(text, expr) or not all(editor.starts_line(s) for s in (start_stmt, work)):
        return None
    elapsed = _fresh_name(ctx, "elapsed")
    levelbench = editor.module_name("levelbench", (start_stmt.lineno, 0))
    imports: list[str] = []
    if levelbench is not None:
        timing, note = f"{elapsed} = {levelbench}.measure(lambda: {text}).median", "# warm-up, repeats, median"
    else:
        imported = editor.import_for("timeit", start_stmt)
        if imported is None:
            return None
        name, line = imported
        imports.append(line)
        timing = f"{elapsed} = min({name}.repeat(lambda: {text}, number=1, repeat=5))"
        note = "# best of 5, warmed up above"
    delete_start = _delete_lines(ctx, start_stmt)
    if delete_start is None:
        return None
    indent = editor.indentation(work.lineno)
    if found.end_assignment is not None:
        # The user's comment on the end clock's line stays where it was, at the end of the line that
        # replaces the clock; the fix's own note gives way to it.
        commented = _trailing_comment(ctx, found.end_assignment)
        timed = editor.replace(found.end_assignment, timing if commented else f"{timing}  {note}")
    else:
        timed = editor.insert_lines_after(work.end_lineno or work.lineno, f"{timing}  {note}", indent)
    difference = editor.replace(found.subtraction, elapsed)
    return as_fix(
        with_imports(editor, imports, delete_start, timed, difference),
        f"time `{short(expr)}` over repeated runs after a warm-up",
    )


def _timed_work(ctx: Context, work: ast.stmt) -> ast.expr | None:
    """The expression the repeated timing runs again: the value of an expression statement, or of an
    assignment to one name, attribute or subscript, when that value is a call or an operator (``f(x)``,
    ``a @ b``, ``-x``). None for every other form, which keeps its finding without a fix: a tuple
    (``lambda: f(x), f(x)`` is a tuple holding a lambda), a lambda (``lambda: lambda: f(x)`` times the making
    of a function), a constant or a name (no work to repeat), several targets, an unpacking, an augmented
    or annotated assignment (the value is not all the statement does), ``await``/``yield`` (a lambda
    cannot hold them), and a class body (a lambda there cannot see the class's names)."""
    if isinstance(work, ast.Expr):
        value = work.value
    elif (
        isinstance(work, ast.Assign) and len(work.targets) == 1
        and isinstance(work.targets[0], (ast.Name, ast.Attribute, ast.Subscript))
    ):
        value = work.value
    else:
        return None
    if not isinstance(value, (ast.Call, ast.BinOp, ast.UnaryOp)):
        return None
    if any(isinstance(n, (ast.Await, ast.Yield, ast.YieldFrom)) for n in ast.walk(value)):
        return None
    scope = next((a for a in ctx.program.ancestors(work) if isinstance(a, SCOPES)), None)
    return None if isinstance(scope, ast.ClassDef) else value


def _a_lambda_returns(text: str, expr: ast.expr) -> bool:
    """``lambda: <text>`` is a lambda whose body is ``expr``, nothing more (the text may span lines)."""
    return parses_to(f"lambda: {text}", ast.Lambda(args=_NO_ARGUMENTS, body=expr))


_NO_ARGUMENTS = ast.arguments(
    posonlyargs=[], args=[], vararg=None, kwonlyargs=[], kw_defaults=[], kwarg=None, defaults=[]
)


def _trailing_comment(ctx: Context, stmt: ast.stmt) -> bool:
    """A comment follows ``stmt`` on its last line."""
    end_line = stmt.end_lineno or stmt.lineno
    end_col = ctx.editor.point(end_line, stmt.end_col_offset or 0)[2]
    return ctx.program.line_text(end_line)[end_col:].strip().startswith("#")


def _read_elsewhere(ctx: Context, assignment: ast.stmt, var: str | None, allowed: list[ast.AST]) -> bool:
    """``var`` (bound by ``assignment``) is read somewhere other than ``allowed`` before it is bound again.

    Only the uses after ``assignment`` up to the next binding are looked at, so that a file of many
    clock pairs costs time in proportion to its length (walking the scope for each pair did not).
    """
    if var is None:
        return True
    scope = _scope_of(ctx, assignment)
    span = ctx.program.tree.span(scope)
    if span is None:
        return True
    first, end = span
    scope_end = (getattr(scope, "end_lineno", None) or 10**9, getattr(scope, "end_col_offset", None) or 0)
    for i, node in ctx.program.tree.name_uses(var).after((assignment.lineno, assignment.col_offset)):
        if (node.lineno, node.col_offset) > scope_end:
            break
        if not first <= i < end:
            continue
        if isinstance(node.ctx, ast.Store):
            return False
        if isinstance(node.ctx, ast.Load) and all(node is not a for a in allowed):
            return True
    return False


def _scope_of(ctx: Context, node: ast.AST) -> ast.AST:
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return ancestor
    return ctx.program.module


def _fresh_name(ctx: Context, base: str) -> str:
    used = ctx.used_names
    if base not in used:
        return base
    return next(f"{base}_{k}" for k in range(2, 1000) if f"{base}_{k}" not in used)


def _delete_lines(ctx: Context, stmt: ast.stmt) -> Edit | None:
    """Delete the whole lines of ``stmt`` (nothing else may be on them but a comment, which stays, on a
    line of its own at the statement's indentation: ``t0 = time.time()  # noqa`` -> ``# noqa``)."""
    editor = ctx.editor
    end_line = stmt.end_lineno or stmt.lineno
    end_col = editor.point(end_line, stmt.end_col_offset or 0)[2]
    after = ctx.program.line_text(end_line)[end_col:]
    rest = after.strip()
    if rest and (not rest.startswith("#") or is_file_pragma(rest)):
        return None  # code after it; or a pragma that, on a line of its own, would silence the whole file
    if rest:
        start_col = editor.point(stmt.lineno, stmt.col_offset)[2]
        return editor.edit(stmt.lineno, start_col, end_line, end_col + after.index("#"), "")
    segment = ctx.program.segment_of(stmt.lineno)
    if end_line < segment.first_line + len(segment.lines) - 1:
        return editor.edit(stmt.lineno, 0, end_line + 1, 0, "")
    return editor.edit(stmt.lineno, 0, end_line, len(ctx.program.line_text(end_line)), "")
