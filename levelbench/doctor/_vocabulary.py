"""What several rules of the doctor say about code: JAX operations, names that are structure, a jit
site as text, a loop that sweeps a parameter. Rules share it from here, and no rule imports another."""

from __future__ import annotations

import ast
import re

from ._context import Context
from ._facts import JitSite


def holds_timing(ctx: Context, loop: ast.AST, nodes: list[ast.AST]) -> bool:
    """A timed region starts inside the loop (a clock pair in the body, ``%timeit`` per step). Not one that times
    the loop itself, started on a later pass (``if step == 1: start = perf_counter()``, case 519 (was 493)): the loop is that
    region's work, not a loop of timings."""
    starts = ctx.index("region starts", lambda: _starts(ctx))
    return any(
        any(loop not in timing for timing in starts.get((getattr(n, "lineno", 0), getattr(n, "col_offset", 0)), ()))
        for n in nodes
    )


def _starts(ctx: Context) -> dict[tuple[int, int], list[tuple[ast.AST, ...]]]:
    """Each region's start -> the statements of the regions that start there."""
    found: dict[tuple[int, int], list[tuple[ast.AST, ...]]] = {}
    for region in ctx.regions:
        found.setdefault(region.start, []).append(region.statements)
    return found


def runs_a_timing(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a local function that holds a timed region, itself or through the local functions it calls: a
    benchmark of its own (MaxText's ``prefill_benchmark(...)``, which warms the step up and times it in
    ``prefill_benchmark_loop``, case 370). Its operations are that benchmark's, judged where they run, not the
    caller's."""
    scopes = ctx.index("timed scopes", lambda: {id(r.scope) for r in ctx.regions if r.scope is not None})
    first = ctx.facts.local_def(call) if scopes else None
    if first is None:
        return False
    answers: dict[int, bool] = ctx.index("local functions that run a timing", dict)
    if id(first) not in answers:
        seen: set[int] = set()
        stack: list[ast.AST] = [first]
        found = False
        while stack and not found:
            function = stack.pop()
            if id(function) in seen:
                continue
            seen.add(id(function))
            found = id(function) in scopes
            stack.extend(f for n in ast.walk(function) if isinstance(n, ast.Call)
                         and (f := ctx.facts.local_def(n)) is not None)
        answers[id(first)] = found
    return answers[id(first)]


def is_sweep(ctx: Context, loop: ast.AST, nodes: list[ast.AST]) -> bool:
    """The loop holds timings and its variable changes what is timed (sizes, inputs): a sweep. A loop that
    only repeats the timed work (``for _ in range(n): t0 = ...``) times one dispatch after another."""
    if not isinstance(loop, (ast.For, ast.AsyncFor)) or not holds_timing(ctx, loop, nodes):
        return False
    if _repeats_values(loop.iter):
        return False  # `for n in [5, 8, 10, 10, 10]`: the repeats time the same work again, not a sweep
    bound = {n.id for n in ast.walk(loop.target) if isinstance(n, ast.Name)}
    return any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Load) and n.id in bound for n in nodes)


def _repeats_values(iterable: ast.expr) -> bool:
    """A literal list or tuple of constants that holds a value twice. A sweep visits each size once;
    a loop that comes back to a size it timed before expects that timing to be the steady one."""
    if not isinstance(iterable, (ast.List, ast.Tuple)) or not iterable.elts:
        return False
    if not all(isinstance(e, ast.Constant) for e in iterable.elts):
        return False
    values = [e.value for e in iterable.elts]
    return len(set(values)) < len(values)


# Iterating over these is walking a structure (layers, a params pytree), not data: small and static.
STRUCTURAL = re.compile(
    r"(?i)(param|layer|weight|block|module|stage|head|level|leaves|tree|items|keys|values|kernel|bias"
    r"|config|cfg|spec|devices|self\.|__\w+__)"
)
"""Names of a model's structure (layers, parameters, pytree leaves): a loop over them is over structure, not data."""


DEVICE_COUNTS = frozenset({"jax.device_count", "jax.local_device_count", "jax.process_count"})
"""Calls that count the devices or processes a program runs on; with mpi4py's ``comm.Get_size()`` (`COUNT_METHODS`),
a loop over such a count walks the machine's structure (one step per shard or rank), not the data."""

COUNT_METHODS = frozenset({"Get_size"})
"""Methods that count processes: mpi4py's ``Comm.Get_size()``, whatever the communicator is called."""


# Calls into these dispatch one JAX operation each (LB106 uses them to spot arrays, LB114 counts them).
JAX_OPS = ("jax.numpy.", "jax.nn.", "jax.lax.", "jax.scipy.", "jax.random.")
"""Prefixes of the qualified names of JAX's array operations."""


def site_text(ctx: Context, site: JitSite) -> str:
    """A jit site as a message names it: ``` `jax.jit(f)` at line 12 ```."""
    return f"`{site.label}` at {ctx.where(site.node)}"
