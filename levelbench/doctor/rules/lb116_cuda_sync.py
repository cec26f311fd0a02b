"""LB116, cuda-not-synchronized: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._effects import is_host_copy
from .._kinds import call_kind
from .._regions import TimedRegion
from .._syntax import local_walk, position, short

CODE = "LB116"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB116: PyTorch work timed without ``torch.cuda.synchronize()`` in a file that uses CUDA."""
    if not ctx.facts.cuda:
        return
    synchronized: set[str] = set()  # calls the file times with a synchronize elsewhere: CUDA work, by its own account
    unsynchronized: list[tuple[TimedRegion, list[ast.Call]]] = []
    for region in ctx.regions:
        if region.synchronizes:
            continue
        calls = ctx.timed_calls(region)
        reached = [*calls, *(m for c in calls if (f := ctx.facts.local_def(c)) for m in local_walk(ctx.program, f))]
        if any(isinstance(n, ast.Call) and _synchronizes(ctx, n) for n in reached):
            synchronized.update(ast.unparse(c) for c in calls if not _host_only(ctx, c))
            continue
        unsynchronized.append((region, calls))
    for region, calls in unsynchronized:
        work = _last_cuda_work(ctx, region, calls, synchronized)
        if work is None:
            continue
        yield ctx.report(
            "LB116",
            work,
            f"`{short(work)}` may run on CUDA and is timed by {region.by} without torch.cuda.synchronize(): "
            "the clock stops before the GPU finishes",
            evidence="the file moves work to CUDA and the timed region never synchronizes",
            fix=f"{short(work)}\ntorch.cuda.synchronize()  # before reading the clock",
        )


def _last_cuda_work(
    ctx: Context, region: TimedRegion, calls: list[ast.Call], synchronized: set[str]
) -> ast.AST | None:
    """The last CUDA work before the clock stops: the work still queued when it is read (`randperm` then
    `y = x[:, idx]`: the indexing of a tensor, not the CPU permutation; `randn(device=...)` then `mm`: the product).
    Indexing counts where it is a statement's whole value; inside a call, the call is the work."""
    work: list[ast.AST] = [c for c in calls if _torch_work(ctx, c) or ast.unparse(c) in synchronized]
    work += [
        n for n in ctx.timed_nodes(region)
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
        and isinstance(ctx.program.parent(n), (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
        and ctx.kinds.of(n) == "torch"
    ]
    return max(work, key=position, default=None)


def _synchronizes(ctx: Context, call: ast.Call) -> bool:
    if isinstance(call.func, ast.Attribute) and call.func.attr in ("synchronize", "elapsed_time"):
        return True
    copied = is_host_copy(ctx, call)
    return copied is not None and ctx.kinds.of(copied) == "torch"


def _host_only(ctx: Context, call: ast.Call) -> bool:
    """A builtin or a NumPy call (``range(10)``, ``np.dot(a, b)``) runs on the host wherever it is timed: timing it
    beside a synchronize elsewhere does not make it CUDA work."""
    qualified = ctx.names.qualname(call.func) or ""
    return qualified.startswith(("builtins.", "numpy.")) or call_kind(qualified) == "numpy"


def _torch_work(ctx: Context, call: ast.Call) -> bool:
    if ctx.facts.is_torch_model_call(call) or ctx.kinds.of(call) == "torch":
        return True
    function = ctx.facts.local_def(call)
    return function is not None and any(
        isinstance(n, ast.Call) and (ctx.facts.is_torch_model_call(n) or ctx.kinds.of(n) == "torch")
        for n in local_walk(ctx.program, function)
    )
