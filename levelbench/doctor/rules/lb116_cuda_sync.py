"""LB116, cuda-not-synchronized: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._autograd import forward_without_grad
from .._context import Context
from .._diagnostic import Diagnostic
from .._effects import handed_torch_work, synchronizes_cuda
from .._kinds import call_kind
from .._regions import TimedRegion
from .._syntax import local_walk, position, short

CODE = "LB116"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB116: PyTorch work timed without ``torch.cuda.synchronize()`` in a file that uses CUDA."""
    if not ctx.facts.cuda:
        return
    # what the file times with a synchronize elsewhere (`Facts.callee`: the same callable, not the same text) and
    # with the same arguments: CUDA work, by its own account
    synchronized: set[tuple[object, str]] = set()
    unsynchronized: list[tuple[TimedRegion, list[ast.Call]]] = []
    library = {id(r) for r in ctx.instrumentation}
    for region in (*ctx.regions, *ctx.instrumentation):
        if region.synchronizes:
            continue
        calls = ctx.timed_calls(region)
        # a local helper's body, and the bodies it has on other branches (`def _sync()` per device): a call that
        # synchronizes where the work is on CUDA waits for it there
        bodies = [f for c in calls if (d := ctx.facts.local_def(c)) is not None
                  for f in (d, *ctx.facts.alternative_defs(d))]
        reached = [*calls, *(m for f in bodies for m in local_walk(ctx.program, f))]
        if any(isinstance(n, ast.Call) and synchronizes_cuda(ctx, n) for n in reached):
            if id(region) not in library:
                synchronized.update(_timed_as(ctx, c) for c in calls if not _host_only(ctx, c))
            continue
        unsynchronized.append((region, calls))
    for region, calls in unsynchronized:
        handed = {id(c) for c in handed_torch_work(ctx, region)}  # a wrapper's `func(*args)` in a profiler range
        if id(region) in library:
            # a library function timing its own work: its callers decide where that runs, so only work on a device
            # the file names as CUDA, or on the one the function is handed (a server's `device`), is known to be queued
            calls = [c for c in calls if _placed_on_a_gpu(ctx, c) or id(c) in handed]
        else:
            calls = [c for c in calls if _torch_work(ctx, c) or _timed_as(ctx, c) in synchronized or id(c) in handed]
        work = _last_cuda_work(ctx, region, calls, id(region) in library)
        if work is None or _handed_to_jax(ctx, region, work):
            continue
        yield ctx.report(
            "LB116",
            work,
            f"`{short(work)}` may run on CUDA and is timed by {region.by} without torch.cuda.synchronize(): "
            "the clock stops before the GPU finishes",
            evidence=(
                "the function times a callable it is handed inside a torch profiler range, in a file that profiles CUDA, "
                "and the timed region never synchronizes" if id(work) in handed
                else "the function works on CUDA or on the device its callers hand it, and the timed region never synchronizes"
                if id(region) in library else "the file moves work to CUDA and the timed region never synchronizes"
            ),
            fix=f"{short(work)}\ntorch.cuda.synchronize()  # before reading the clock",
        )


def _handed_to_jax(ctx: Context, region: TimedRegion, work: ast.AST) -> bool:
    """The tensor ``work`` makes flows, within the region, into a call that computes in JAX (``action = torch.rand(...,
    device=device)``, ``jax_action = torch_to_jax(action)``, ``e.step(state=s, action=jax_action)``): the hand-over
    orders JAX's work after the tensor's, so the wait the region lacks is JAX's (LB102's), and it covers both."""
    parent = ctx.program.parent(work)
    if not (isinstance(parent, ast.Assign) and parent.value is work and len(parent.targets) == 1
            and isinstance(parent.targets[0], ast.Name)):
        return False
    derived = {parent.targets[0].id}
    for node in sorted((n for n in ctx.timed_nodes(region) if isinstance(n, ast.Call)), key=position):
        if position(node) <= position(work):
            continue
        given = [*node.args, *(k.value for k in node.keywords)]
        if not any(isinstance(a, ast.Name) and a.id in derived for a in given):
            continue
        outer = node  # `env.step(state, torch_to_jax(action))`: the calls the value is passed on to, innermost first
        while True:
            if ctx.kinds.of(outer) == "jax":
                return True
            holder = ctx.program.parent(outer)
            if isinstance(holder, (ast.keyword, ast.Starred)):
                holder = ctx.program.parent(holder)  # `env.step(state=s, action=torch_to_jax(action))`
            if not (isinstance(holder, ast.Call) and outer is not holder.func):
                break
            outer = holder
        if isinstance(holder, ast.Assign) and holder.value is outer:
            derived.update(n.id for t in holder.targets for n in ast.walk(t) if isinstance(n, ast.Name))
    return False


def _timed_as(ctx: Context, call: ast.Call) -> tuple[object, str]:
    """A timed call as the synchronized timings are compared: what it runs, and its arguments as written."""
    return ctx.facts.callee(call), ast.unparse(call)


def _last_cuda_work(ctx: Context, region: TimedRegion, calls: list[ast.Call], library: bool) -> ast.AST | None:
    """The last CUDA work before the clock stops: the work still queued when it is read (`randperm` then
    `y = x[:, idx]`: the indexing of a tensor, not the CPU permutation; `randn(device=...)` then `mm`: the product).
    Indexing counts where it is a statement's whole value; inside a call, the call is the work."""
    work: list[ast.AST] = [c for c in calls if ctx.devices.of(c) not in ("cpu", "xla")]  # `calls`: the timed torch work
    work += [
        n for n in ctx.timed_nodes(region)
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
        and isinstance(ctx.program.parent(n), (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
        and ctx.kinds.of(n) == "torch"
        and (ctx.devices.of(n) in ("cuda", "handed") if library else ctx.devices.of(n) not in ("cpu", "xla"))
    ]
    inside = {id(n) for w in work for n in ast.walk(w) if n is not w}
    outer = [w for w in work if id(w) not in inside]
    # A module's forward is the work the region times; what follows it on its output (`torch.cat(out)`,
    # `y.mean().backward()`) is queued behind it, and the finding names the forward the clock does not wait for.
    last = max(outer, key=position, default=None)  # `model(x.cuda())`: the model
    if isinstance(last, ast.Call) and _blocking_copy_to_device(ctx, last):
        return None  # the copy waits for the queued kernels first, then for itself: nothing runs on at the clock
    modules = [w for w in outer if isinstance(w, ast.Call) and _module_call(ctx, w)]
    return max(modules, key=position, default=last)


def _module_call(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a torch module (``model(x)``, ``net.forward(x)``) or a callable the file does not show on a
    tensor it moved to CUDA: a network's forward, not one tensor operation."""
    return ctx.facts.is_torch_model_call(call) or _given_cuda_tensor(ctx, call) or forward_without_grad(ctx, call)


def _blocking_copy_to_device(ctx: Context, call: ast.Call) -> bool:
    """``torch.randn(1).cuda()``: a copy from (pageable) host memory, not ``non_blocking``. CUDA synchronizes the
    stream before such a copy and the host waits for the copy, so work queued before it is done when it returns."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "cuda"):
        return False
    if any(k.arg == "non_blocking" for k in call.keywords):
        return False
    receiver = call.func.value
    on_device = ctx.devices.moved_to_cuda(receiver) or (
        isinstance(receiver, ast.Call) and any(k.arg == "device" for k in receiver.keywords)
    )  # `.cuda()` of a tensor already there (or made with `device=`) copies nothing and waits for nothing
    return not on_device


def _given_cuda_tensor(ctx: Context, call: ast.Call) -> bool:
    """A callable the file does not show (no library function, no local def) called with a tensor that the file
    moved to CUDA (a value of ``.cuda()``): its computation on that tensor is queued on the GPU."""
    if ctx.names.qualname(call.func) is not None or ctx.facts.local_def(call) is not None:
        return False
    return any(ctx.devices.moved_to_cuda(a) for a in call.args)


def _placed_on_a_gpu(ctx: Context, call: ast.Call) -> bool:
    """``call`` works on a tensor or module that the file puts on CUDA, or on the device its function is handed (the
    caller's, which a function that takes a device is written to run on an accelerator): by where the call's receiver
    is, or where a tensor it is given is."""
    on = ("cuda", "handed")
    given = [*call.args, *(k.value for k in call.keywords)]
    return ctx.devices.of(call) in on or any(ctx.devices.of(a) in on for a in given)


def _host_only(ctx: Context, call: ast.Call) -> bool:
    """A builtin or a NumPy call (``range(10)``, ``np.dot(a, b)``) runs on the host wherever it is timed: timing it
    beside a synchronize elsewhere does not make it CUDA work."""
    qualified = ctx.names.qualname(call.func) or ""
    return qualified.startswith(("builtins.", "numpy.")) or call_kind(qualified) == "numpy"


def _torch_work(ctx: Context, call: ast.Call) -> bool:
    if ctx.facts.is_torch_model_call(call) or ctx.kinds.of(call) == "torch":
        return True
    if _given_cuda_tensor(ctx, call) or forward_without_grad(ctx, call):
        return True  # `model(img.unsqueeze(0))` with `img = ....cuda()`: whatever `model` is, it computes on the GPU
    function = ctx.facts.local_def(call)
    return function is not None and any(
        isinstance(n, ast.Call) and (ctx.facts.is_torch_model_call(n) or ctx.kinds.of(n) == "torch")
        for n in local_walk(ctx.program, function)
    )
