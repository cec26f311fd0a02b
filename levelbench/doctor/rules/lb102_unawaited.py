"""LB102, unblocked-jax-timing: the check and its fix; the rule's words are its catalogue entry.

    %timeit f(x)                    ->  %timeit jax.block_until_ready(f(x))
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ..._values.intent import compilation_alone_meant
from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding, with_imports
from .._effects import handed_functions_unawaited, handed_work_unawaited, only_logs_its_interval, unawaited_jax
from .._intent import timing_words
from .._names import dotted
from .._regions import TimedRegion
from .._syntax import short, unparse

CODE = "LB102"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB102: a JAX computation in a timed region that nothing waits for."""
    timings = [
        (r, unawaited_jax(ctx, r.work, r.before_clock, last_passes=not only_logs_its_interval(ctx, r)))
        for r in ctx.regions
    ]
    # a library function timing what its callers hand it: unwaited whatever they hand (`handed_work_unawaited`)
    timings += [(r, handed_work_unawaited(ctx, r)) for r in ctx.instrumentation]
    for region, culprit in timings:
        if culprit is None or _times_compilation_alone(ctx, region, culprit):
            continue
        text = short(culprit)
        yield ctx.report(
            "LB102",
            culprit,
            f"`{text}` is timed by {region.by} without waiting for it: JAX returns before the work is done",
            evidence=f"no block_until_ready() or host conversion of the result of `{text}` inside the timed region",
            fix=_blocked_fix(ctx, region, culprit),
            edits=lambda: wait_for(ctx, culprit),
        )
    for region, culprit in timings:
        if culprit is not None or not any(region is r for r in ctx.regions):
            continue
        for value in handed_functions_unawaited(ctx, region):
            text = short(value)
            yield ctx.report(
                "LB102",
                value,
                f"`{text}` hands {region.by} a function that queues JAX work and returns nothing: the clock stops "
                "before the work is done",
                evidence=f"the function `{text}` gives runs JAX operations, waits for none of them and returns "
                "nothing a caller could wait on",
                fix="return the result and time `lambda: jax.block_until_ready(fn())`, or wait inside the function",
            )


def _times_compilation_alone(ctx: Context, region: TimedRegion, culprit: ast.AST) -> bool:
    """The timing says it measures compilation and nothing else (``compile_time = timeit.timeit(solve_, number=1)``,
    diffrax's benchmarks/compile_times.py): JAX traces and compiles before the call returns, and the run it then
    dispatches is not what the figure is for. Not ``Compile+run time`` nor ``first call``: those hold the run.

    Nor when the program times the same callable again (the GRU seed: ``# compile time`` over
    ``%time jitted_forward(...)``, then ``%timeit jitted_forward(...)``): that first timing is read against the
    steady one, so it is a first call, and the first run belongs in it."""
    if isinstance(culprit, ast.Call) and dotted(culprit.func) in ctx.facts.aot:
        return False  # an executable compiled ahead of time (`self._solve_compiled(x)`): calling it compiles nothing
    first, last = region.written_lines()
    if not first or not compilation_alone_meant(timing_words(ctx, region), first, last, region.subtraction_lines()):
        return False
    return not _timed_elsewhere(ctx, region, culprit)


def _timed_elsewhere(ctx: Context, region: TimedRegion, culprit: ast.AST) -> bool:
    """Whether another timed region calls the callable that ``culprit`` calls (compared as written)."""
    if not isinstance(culprit, ast.Call):
        return False
    timing = ctx.index("LB102 timings by callee", lambda: _timings_by_callee(ctx)).get(unparse(culprit.func), ())
    return any(other is not region for other in timing)


def _timings_by_callee(ctx: Context) -> dict[str, list[TimedRegion]]:
    """callee as written -> the timed regions that call it, built once per program rather than once per region."""
    found: dict[str, list[TimedRegion]] = {}
    for region in ctx.regions:
        for call in ctx.timed_calls(region):
            timing = found.setdefault(unparse(call.func), [])
            if not timing or timing[-1] is not region:
                timing.append(region)
    return found


def _blocked_fix(ctx: Context, region: TimedRegion, culprit: ast.AST) -> str:
    text = unparse(culprit)
    if _drops_a_library_run(ctx, culprit):
        owner = unparse(culprit.func.value)  # type: ignore[attr-defined]
        return (f"wait for what `{owner}` computed before the clock stops: "
                f"`jax.block_until_ready({owner}.get_samples())` for a NumPyro sampler, "
                f"`{owner}.print_summary()` to read it")
    if region.label.startswith("%"):
        return f"{region.label} {text}.block_until_ready()"
    if region.label.startswith("timeit"):
        return f"{region.label}(lambda: {text}.block_until_ready(), ...)"
    return f"jax.block_until_ready({text})  # inside the timed region, before reading the clock"


@never_hides_the_finding
def wait_for(ctx: Context, culprit: ast.AST) -> Fix | None:
    """Wrap the timed JAX expression in ``jax.block_until_ready(...)``, which works on any pytree."""
    if not isinstance(culprit, ast.expr):
        return None
    if _drops_a_library_run(ctx, culprit):
        # `mcmc.run(...)` keeps its samples on the object and returns None: blocking on it waits for nothing
        return None
    if isinstance(culprit, ast.Call):
        function = ctx.facts.local_def(culprit)
        if function is not None and not _returns_a_value(ctx, function):
            return None  # it returns nothing to wait on: blocking on None would hide the problem, not fix it
    editor = ctx.editor
    imported = editor.import_for("jax", culprit)
    if imported is None:
        return None
    name, line = imported
    wrapped = editor.wrap(culprit, f"{name}.block_until_ready(", ")")
    if wrapped is None:
        return None
    return as_fix(with_imports(editor, [line], *wrapped), f"wait for `{short(culprit)}` inside the timing")


def _drops_a_library_run(ctx: Context, culprit: ast.AST) -> bool:
    """``culprit`` is a JAX library object's run written as a statement of its own (`LibraryCall.keeps_results`): what
    it computed stays on the object (NumPyro's ``mcmc.run`` returns None), so wrapping the call waits for nothing."""
    library = ctx.facts.library_call(culprit) if isinstance(culprit, ast.Call) else None
    return library is not None and library.keeps_results


def _returns_a_value(ctx: Context, function: ast.AST) -> bool:
    if isinstance(function, ast.Lambda):
        return True
    return any(
        isinstance(n, ast.Return) and n.value is not None and not (isinstance(n.value, ast.Constant) and n.value.value is None)
        for n in ast.walk(function)
    )
