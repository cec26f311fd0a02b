"""LB116, cuda-not-synchronized: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._effects import synchronizes_cuda
from .._kinds import call_kind
from .._names import dotted
from .._regions import TimedRegion
from .._syntax import enclosing_function, local_walk, position, short

CODE = "LB116"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB116: PyTorch work timed without ``torch.cuda.synchronize()`` in a file that uses CUDA."""
    if not ctx.facts.cuda:
        return
    synchronized: set[str] = set()  # calls the file times with a synchronize elsewhere: CUDA work, by its own account
    unsynchronized: list[tuple[TimedRegion, list[ast.Call]]] = []
    library = {id(r) for r in ctx.instrumentation}
    for region in (*ctx.regions, *ctx.instrumentation):
        if region.synchronizes:
            continue
        calls = ctx.timed_calls(region)
        reached = [*calls, *(m for c in calls if (f := ctx.facts.local_def(c)) for m in local_walk(ctx.program, f))]
        if any(isinstance(n, ast.Call) and synchronizes_cuda(ctx, n) for n in reached):
            if id(region) not in library:
                synchronized.update(ast.unparse(c) for c in calls if not _host_only(ctx, c))
            continue
        unsynchronized.append((region, calls))
    for region, calls in unsynchronized:
        if id(region) in library:
            # a library function timing its own work: its callers decide where that runs, so only work on a device
            # the file names as CUDA, or on the one the function is handed (a server's `device`), is known to be queued
            calls = [c for c in calls if _placed_on_a_gpu(ctx, c)]
        else:
            calls = [c for c in calls if _torch_work(ctx, c) or ast.unparse(c) in synchronized]
        work = _last_cuda_work(ctx, region, calls, id(region) in library)
        if work is None:
            continue
        yield ctx.report(
            "LB116",
            work,
            f"`{short(work)}` may run on CUDA and is timed by {region.by} without torch.cuda.synchronize(): "
            "the clock stops before the GPU finishes",
            evidence=(
                "the function works on CUDA or on the device its callers hand it, and the timed region never synchronizes"
                if id(region) in library else "the file moves work to CUDA and the timed region never synchronizes"
            ),
            fix=f"{short(work)}\ntorch.cuda.synchronize()  # before reading the clock",
        )


def _last_cuda_work(ctx: Context, region: TimedRegion, calls: list[ast.Call], library: bool) -> ast.AST | None:
    """The last CUDA work before the clock stops: the work still queued when it is read (`randperm` then
    `y = x[:, idx]`: the indexing of a tensor, not the CPU permutation; `randn(device=...)` then `mm`: the product).
    Indexing counts where it is a statement's whole value; inside a call, the call is the work."""
    work: list[ast.AST] = [c for c in calls if _device(ctx, c) not in ("cpu", "xla")]  # `calls`: the timed torch work
    work += [
        n for n in ctx.timed_nodes(region)
        if isinstance(n, ast.Subscript) and isinstance(n.ctx, ast.Load)
        and isinstance(ctx.program.parent(n), (ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Expr))
        and ctx.kinds.of(n) == "torch"
        and (_device(ctx, n) in ("cuda", "handed") if library else _device(ctx, n) not in ("cpu", "xla"))
    ]
    inside = {id(n) for w in work for n in ast.walk(w) if n is not w}
    last = max((w for w in work if id(w) not in inside), key=position, default=None)  # `model(x.cuda())`: the model
    if isinstance(last, ast.Call) and _blocking_copy_to_device(ctx, last):
        return None  # the copy waits for the queued kernels first, then for itself: nothing runs on at the clock
    return last


def _blocking_copy_to_device(ctx: Context, call: ast.Call) -> bool:
    """``torch.randn(1).cuda()``: a copy from (pageable) host memory, not ``non_blocking``. CUDA synchronizes the
    stream before such a copy and the host waits for the copy, so work queued before it is done when it returns."""
    if not (isinstance(call.func, ast.Attribute) and call.func.attr == "cuda"):
        return False
    if any(k.arg == "non_blocking" for k in call.keywords):
        return False
    receiver = call.func.value
    on_device = _on_cuda(ctx, receiver) or (
        isinstance(receiver, ast.Call) and any(k.arg == "device" for k in receiver.keywords)
    )  # `.cuda()` of a tensor already there (or made with `device=`) copies nothing and waits for nothing
    return not on_device


def _given_cuda_tensor(ctx: Context, call: ast.Call) -> bool:
    """A callable the file does not show (no library function, no local def) called with a tensor that the file
    moved to CUDA (a value of ``.cuda()``): its computation on that tensor is queued on the GPU."""
    if ctx.names.qualname(call.func) is not None or ctx.facts.local_def(call) is not None:
        return False
    return any(_on_cuda(ctx, a) for a in call.args)


def _on_cuda(ctx: Context, value: ast.AST, depth: int = 0) -> bool:
    """``value`` is a tensor the file moved to CUDA: ``t.cuda()``, a method of one (``img.unsqueeze(0)``), or a
    name bound to one."""
    if depth > 6:
        return False
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr == "cuda" or _on_cuda(ctx, value.func.value, depth + 1)
    if isinstance(value, ast.Name):
        return any(_on_cuda(ctx, v, depth + 1) for v in ctx.facts.bindings.values_at(value.id, value))
    return False


def _device(ctx: Context, value: ast.AST | None, depth: int = 0) -> str | None:
    """``"cuda"``, ``"cpu"``, ``"xla"`` or ``"handed"`` (the device the function around it is given, see
    `_device_named`) where the file shows where the tensor ``value`` (or the torch work that makes it) is, in
    program order; None when it does not (a module, a parameter, a device chosen at run time). A torch function works
    where its tensors are, or makes one on its ``device=`` (the CPU when none is given and the file sets no default);
    ``.cuda()``, ``.cpu()`` and ``.to("cuda")`` move one; a name is where the binding that reaches it put it:
    ``t = t.cuda()`` on a later line leaves an earlier ``torch.det(t)`` on the CPU."""
    if value is None or depth > 8:
        return None
    depth += 1
    if isinstance(value, ast.Name):
        return _device(ctx, ctx.facts.bindings.reaching(value.id, value), depth)
    if isinstance(value, ast.Subscript) or (isinstance(value, ast.Attribute) and ctx.kinds.of(value) == "torch"):
        return _device(ctx, value.value, depth)  # `x[0]`, `x.T`: where `x` is
    if not isinstance(value, ast.Call):
        return None
    func = value.func
    qualified = ctx.names.qualname(func)
    if qualified is None and isinstance(func, ast.Attribute):
        if func.attr in ("cuda", "cpu"):
            return func.attr
        if func.attr == "to":
            target = value.args[0] if value.args else next((k.value for k in value.keywords if k.arg == "device"), None)
            return _device_named(ctx, target)
        return _device(ctx, func.value, depth)  # `t.float()`, `t.sum()`: where `t` is
    if qualified is None and isinstance(func, ast.Name):
        function = ctx.facts.local_def(value)
        if function is None:
            found = _device(ctx, func, depth)  # `block(x)`: a module runs where it was moved
            if found is None and not ctx.facts.is_torch_model_call(value) and _given_tensors(ctx, value):
                return _where_tensors_are(ctx, value, depth)  # `det = partial(torch.det)`: a torch function
            return found
        # a local function works where its torch work does, when the file shows one place for all of it
        work = [
            n for n in local_walk(ctx.program, function)
            if isinstance(n, ast.Call) and (ctx.facts.is_torch_model_call(n) or ctx.kinds.of(n) == "torch")
        ]
        found = {_device(ctx, n, depth) for n in work}
        return found.pop() if len(found) == 1 else None
    if qualified is None and isinstance(func, ast.Subscript) and _given_tensors(ctx, value):
        return _where_tensors_are(ctx, value, depth)  # `fns["det"](t)`: a torch function kept in a container
    if qualified is None or not qualified.startswith("torch.") or call_kind(qualified) != "torch":
        return None
    return _where_tensors_are(ctx, value, depth)


def _given_tensors(ctx: Context, call: ast.Call) -> bool:
    """A torch computation the callee of which is not resolved (a partial, a container's element), given tensors:
    it works where they are."""
    return ctx.kinds.of(call) == "torch" and any(ctx.kinds.of(a) == "torch" for a in call.args)


def _where_tensors_are(ctx: Context, value: ast.Call, depth: int) -> str | None:
    """Where a torch function works: on its ``device=``, else where its tensor arguments all are (the CPU when it
    is given none and the file sets no default device)."""
    placed = next((k.value for k in value.keywords if k.arg == "device"), None)
    if placed is not None:
        return _device_named(ctx, placed)
    tensors = [a for a in value.args if ctx.kinds.of(a) == "torch"]
    if not tensors:
        return None if "set_default_device" in ctx.program.text else "cpu"
    found = {_device(ctx, a, depth) for a in tensors}
    return found.pop() if len(found) == 1 else None


def _device_named(ctx: Context, value: ast.AST | None) -> str | None:
    """The device a literal names: ``"cuda:0"``, ``"cpu"``, ``torch.device("cuda")``; ``"handed"`` for a parameter of
    the function around it that nothing rebinds before (``block.to(device)`` in ``def measure(device)``); ``"xla"`` for
    PyTorch/XLA's device (`Facts.is_xla_device`); None for anything else."""
    if value is not None and ctx.facts.is_xla_device(value):
        return "xla"
    if isinstance(value, ast.Call) and value.args and (dotted(value.func) or "").endswith("device"):
        value = value.args[0]
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        kind = value.value.split(":")[0]
        return kind if kind in ("cuda", "cpu") else None
    if isinstance(value, ast.Name) and ctx.facts.bindings.reaching(value.id, value) is None:
        function = enclosing_function(ctx.program, value)
        args = getattr(function, "args", None)
        if args is not None and value.id in {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs]}:
            return "handed"
    return None


def _placed_on_a_gpu(ctx: Context, call: ast.Call) -> bool:
    """``call`` works on a tensor or module that the file puts on CUDA, or on the device its function is handed (the
    caller's, which a function that takes a device is written to run on an accelerator): by where the call's receiver
    is, or where a tensor it is given is."""
    on = ("cuda", "handed")
    return _device(ctx, call) in on or any(_device(ctx, a) in on for a in [*call.args, *(k.value for k in call.keywords)])

def _host_only(ctx: Context, call: ast.Call) -> bool:
    """A builtin or a NumPy call (``range(10)``, ``np.dot(a, b)``) runs on the host wherever it is timed: timing it
    beside a synchronize elsewhere does not make it CUDA work."""
    qualified = ctx.names.qualname(call.func) or ""
    return qualified.startswith(("builtins.", "numpy.")) or call_kind(qualified) == "numpy"


def _torch_work(ctx: Context, call: ast.Call) -> bool:
    if ctx.facts.is_torch_model_call(call) or ctx.kinds.of(call) == "torch":
        return True
    if _given_cuda_tensor(ctx, call):
        return True  # `model(img.unsqueeze(0))` with `img = ....cuda()`: whatever `model` is, it computes on the GPU
    function = ctx.facts.local_def(call)
    return function is not None and any(
        isinstance(n, ast.Call) and (ctx.facts.is_torch_model_call(n) or ctx.kinds.of(n) == "torch")
        for n in local_walk(ctx.program, function)
    )
