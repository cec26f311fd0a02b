"""LB105, wall-clock-timer: the check and its fix; the rule's words are its catalogue entry.

    t0 = time.time()                ->  t0 = time.perf_counter()   (and the clock that ends the pair)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Edit, Fix
from .._edits import as_fix, never_hides_the_finding
from .._fixes import pair
from .._hook_timing import hook_pairs
from .._names import names_a_class
from .._regions import WALL_CLOCKS, TimedRegion, entry_clock
from .._syntax import enclosing_function, parameter_names

CODE = "LB105"


def check(ctx: Context) -> Iterator[Diagnostic]:
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
            fix=f"start = {_steady(wall[0])}",
            edits=lambda: steady_clock(ctx, region),
        )
    started: set[int] = set()
    for region in ctx.regions:
        clock = entry_clock(ctx.program, ctx.facts, region)
        if clock is None or id(clock) in started:
            continue
        qualified = ctx.names.qualname(clock.func) or ""
        if qualified not in WALL_CLOCKS or not any(
            isinstance(n, ast.Call) and _does_work(ctx, n) for n in ctx.timed_nodes(region)
        ):
            continue
        started.add(id(clock))  # the timer's read, reported once however many blocks it times
        yield ctx.report(
            "LB105",
            clock,
            f"`{_shown(qualified)}` starts the timer `{ast.unparse(region.anchor)}` that times an interval: it is the wall clock, "
            "which can jump and is coarse on some systems",
            evidence=f"the timer's class reads `{qualified}` when its block starts and ends",
            fix=f"self.start = {_steady(qualified)}  # in the timer, at both ends",
        )
    for hooks in hook_pairs(ctx.program, ctx.names):
        if hooks.clock not in WALL_CLOCKS:
            continue
        yield ctx.report(
            "LB105",
            hooks.start,
            f"`{_shown(hooks.clock)}` times the work the framework runs between the callback's `{hooks.start_hook.name}` and "
            f"`{hooks.end_hook.name}`: it is the wall clock, which can jump and is coarse on some systems",
            evidence=f"`{hooks.callback.name}` keeps a `{hooks.clock}` reading in `{hooks.start_hook.name}` and "
            f"subtracts it in `{hooks.end_hook.name}`",
            fix=f"{ast.unparse(hooks.start)} -> {_steady(hooks.clock)} in both hooks",
        )


def _shown(clock: str) -> str:
    """A wall clock's call as the user wrote it in substance: ``datetime.now()``, ``time.time_ns()``."""
    name = clock.rsplit(".", 1)[-1]
    return f"datetime.{name}()" if clock.startswith("datetime.") else f"time.{name}()"


def _steady(clock: str) -> str:
    """The steady clock that replaces ``clock``, in the same unit: ``time.perf_counter_ns()`` for ``time.time_ns``."""
    return f"time.perf_counter{'_ns' if clock.endswith('_ns') else ''}()"


# Pytree utilities: host-side work of the framework, what a benchmark of tree traversal times (Flax's
# `nnx_state_traversal.py` times `jax.tree_util.tree_flatten_with_path` 1000 times, case 265).
_PYTREE_UTILITIES = ("jax.tree_util.", "jax.tree.", "optree.", "flax.traverse_util.", "equinox.tree_")


def _does_work(ctx: Context, call: ast.Call) -> bool:
    """Framework work, a wait on a JAX result, or (in a file that uses a framework) a call of something the file does not define,
    such as a model loaded elsewhere (``backbone_trt(images)``): not ``print`` or ``sleep``. A framework's pytree
    utilities count: they run on the host and dispatch nothing, but they are the framework's work, and an interval
    that times them is read on the same clock."""
    if ctx.does_framework_work(call):
        return True
    qualified = ctx.names.qualname(call.func)
    if qualified is not None and qualified.startswith(_PYTREE_UTILITIES):
        return True
    if isinstance(call.func, ast.Attribute) and call.func.attr == "block_until_ready":
        return True  # the interval waits on a JAX result (`sample.block_until_ready()`): it times JAX work
    imported = ctx.facts.imported_function(call.func) if ctx.facts.jax_code else None
    if imported is not None and not names_a_class(imported):
        return True  # JAX code: a function of the project's own package (`j_step_uncontrolled`) or a JAX backend's;
        # not a class (`ocp.args.Composite(...)`, `Sim(...)`): building an object is no work of its own
    if bool(ctx.facts.frameworks) and _handed_objects_method(ctx, call):
        return True
    return bool(ctx.facts.frameworks) and qualified is None and ctx.facts.local_def(call) is None and not isinstance(
        call.func, ast.Attribute
    )


def _handed_objects_method(ctx: Context, call: ast.Call) -> bool:
    """A method of an object the function around the call is handed and never rebinds (``def generate(model, ...)``,
    then ``model.generate(inputs)``): in a file that uses a framework, an object whose making the file does not show
    is as unknown as a function it does not define (``backbone_trt(images)``), and a model handed to a timing
    helper is the usual one. Not ``self``'s methods: the class is in the file."""
    receiver = call.func.value if isinstance(call.func, ast.Attribute) else None
    if not isinstance(receiver, ast.Name):
        return False
    function = enclosing_function(ctx.program, call)
    if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or receiver.id not in parameter_names(function):
        return False
    positional = [*function.args.posonlyargs, *function.args.args]
    in_class = isinstance(ctx.program.parent(function), ast.ClassDef)
    if in_class and positional and positional[0].arg == receiver.id:
        return False
    return not any(
        isinstance(n, ast.Name) and n.id == receiver.id and isinstance(n.ctx, ast.Store) for n in ast.walk(function)
    )


@never_hides_the_finding
def steady_clock(ctx: Context, region: TimedRegion) -> Fix | None:
    """``time.time()`` -> ``time.perf_counter()`` at both ends of the pair (``_ns`` kept)."""
    found = pair(ctx, region)
    if found is None or found.end_clock is None or region.clock_node is None:
        return None
    edits: list[Edit | None] = []
    for clock in (region.clock_node, found.end_clock):
        func = clock.func  # type: ignore[attr-defined]
        qualified = ctx.names.qualname(func)
        if qualified not in ("time.time", "time.time_ns") or not isinstance(func, ast.Attribute):
            return None
        owner = ctx.editor.source(func.value)
        if owner is None:
            return None
        suffix = "_ns" if qualified.endswith("_ns") else ""
        edits.append(ctx.editor.replace(func, f"{owner}.perf_counter{suffix}"))
    return as_fix(edits, "time with the steady, high-resolution clock time.perf_counter()")
