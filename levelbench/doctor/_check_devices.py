"""Rules about devices in timed regions: LB112 (PyTorch autograd on), LB115 (host transfers),
LB116 (CUDA not synchronized)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._context import Context
from ._diagnostic import Diagnostic
from ._fixes import inference_mode
from ._effects import dispatches_jax, is_host_copy
from ._kinds import call_kind
from ._names import dotted
from ._regions import TimedRegion
from ._syntax import local_walk, position, short

_GRAD_OFF = frozenset(
    {
        "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.inference_mode",
        "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
    }
)
_GRAD_SWITCH = frozenset(
    {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled"}
)


def _turns_grad_off(ctx: Context, expr: ast.AST) -> bool:
    callee = expr.func if isinstance(expr, ast.Call) else expr
    qualified = ctx.names.qualname(callee)
    if qualified in _GRAD_OFF:
        return True
    if qualified in _GRAD_SWITCH and isinstance(expr, ast.Call) and expr.args:
        return isinstance(expr.args[0], ast.Constant) and expr.args[0].value is False
    return False


def _grad_off_around(ctx: Context, node: ast.AST) -> bool:
    """A ``with torch.no_grad():`` block or a ``@torch.no_grad()`` function encloses ``node``."""
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, (ast.With, ast.AsyncWith)):
            if any(_turns_grad_off(ctx, item.context_expr) for item in ancestor.items):
                return True
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(_turns_grad_off(ctx, d) for d in ancestor.decorator_list):
                return True
    return False


def _grad_off_globally(ctx: Context, region: TimedRegion) -> bool:
    """``torch.set_grad_enabled(False)`` before the region, or parameters frozen with ``requires_grad_(False)``."""
    for node in ctx.program.of_type(ast.Call, ast.Assign):
        if isinstance(node, ast.Call):
            if _turns_grad_off(ctx, node) and position(node) < region.start:
                if not isinstance(ctx.program.parent(node), ast.withitem):
                    return True
            if isinstance(node.func, ast.Attribute) and node.func.attr == "requires_grad_":
                if node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value is False:
                    return True
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value is False:
            if any(isinstance(t, ast.Attribute) and t.attr == "requires_grad" for t in node.targets):
                return True
    return False


def _model_calls(ctx: Context, region: TimedRegion) -> Iterator[tuple[ast.Call, ast.Call]]:
    """(call in the region, model call it makes): the model directly, or inside a local function."""
    for call in ctx.timed_calls(region):
        if ctx.facts.is_torch_model_call(call):
            yield call, call
            continue
        function = ctx.facts.local_def(call)
        if function is not None:
            for inner in local_walk(ctx.program, function):
                if isinstance(inner, ast.Call) and ctx.facts.is_torch_model_call(inner):
                    yield call, inner


def check_autograd_timed(ctx: Context) -> Iterator[Diagnostic]:
    """LB112: a PyTorch model called in a timed region with autograd recording."""
    if not ctx.facts.torch_models and not ctx.facts.torch_classes and "torch" not in ctx.facts.frameworks:
        return
    for region in ctx.regions:
        if _trains(ctx, region):
            continue  # timing a training step: autograd is the point
        if _grad_off_around(ctx, region.anchor) or _runs_without_grad(ctx, region):
            continue
        for outer, inner in _model_calls(ctx, region):
            if _grad_off_around(ctx, outer) or _grad_off_around(ctx, inner):
                continue
            if _grad_off_globally(ctx, region):
                return
            func = inner.func
            if isinstance(func, ast.Attribute) and func.attr == "forward":
                func = func.value
            model = dotted(func) or short(func)
            via = "" if outer is inner else f" (inside `{short(outer.func)}`)"
            timed = short(outer)
            fix_line = f"{region.label} {timed}" if region.label.startswith("%") else f"...time `{timed}` here..."
            yield ctx.report(
                "LB112",
                outer,
                f"PyTorch model `{model}` is timed with autograd on{via}: every call records the graph for a "
                "backward pass",
                evidence=f"no torch.no_grad() / torch.inference_mode() around `{short(inner)}`",
                fix=f"{model}.eval()\nwith torch.inference_mode():\n    {fix_line}",
                edits=lambda: inference_mode(ctx, region),
            )
            break


def _runs_without_grad(ctx: Context, region: TimedRegion) -> bool:
    """``t = Timer("model(x)")`` ... ``with torch.no_grad(): t.blocked_autorange()``: the statement runs at the call."""
    parent = ctx.program.parent(region.anchor)
    if not (isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name)):
        return False
    timer = parent.targets[0].id
    runs = [
        c for c in ctx.program.of_type(ast.Call)
        if isinstance(c.func, ast.Attribute) and isinstance(c.func.value, ast.Name) and c.func.value.id == timer
    ]
    return bool(runs) and all(_grad_off_around(ctx, c) for c in runs)


def _trains(ctx: Context, region: TimedRegion) -> bool:
    """The region runs a backward pass (``loss.backward()``, ``torch.autograd.grad``, ``optimizer.step()``)."""
    calls = ctx.timed_calls(region)
    reached = [*calls, *(m for c in calls if (f := ctx.facts.local_def(c)) for m in local_walk(ctx.program, f))]
    for call in reached:
        if not isinstance(call, ast.Call):
            continue
        if isinstance(call.func, ast.Attribute) and call.func.attr == "backward":
            return True
        if ctx.names.qualname(call.func) in ("torch.autograd.grad", "torch.autograd.backward"):
            return True
    return False


def check_host_transfers(ctx: Context) -> Iterator[Diagnostic]:
    """LB115: device-to-host copies, or NumPy inputs to jitted functions, inside a timed region."""
    seen: set[int] = set()
    for region in ctx.regions:
        for call in ctx.timed_calls(region):
            if id(call) in seen:
                continue
            copied = is_host_copy(ctx, call)
            if copied is not None and (ctx.kinds.of(copied) == "jax" or ctx.facts.cuda):
                seen.add(id(call))
                yield ctx.report(
                    "LB115",
                    call,
                    f"`{short(call)}` copies `{short(copied, 30)}` to the host inside the timed region",
                    evidence=f"the region timed by {region.by} includes a device-to-host transfer",
                    fix=f"jax.block_until_ready({short(copied)})  # wait inside the timing; convert after it",
                )
                continue
            if _runs_jax(ctx, call) and ctx.names.qualname(call.func) not in _EXPLICIT_TRANSFERS:
                for arg in call.args:
                    if ctx.kinds.of(arg) == "numpy":
                        seen.add(id(call))
                        yield ctx.report(
                            "LB115",
                            arg,
                            f"NumPy array `{short(arg, 30)}` is passed to JAX `{short(call.func, 30)}` inside the "
                            "timed region: it is copied to the device on every call",
                            evidence=f"`{short(arg, 30)}` comes from NumPy",
                            fix=f"{short(arg, 30)}_dev = jax.device_put({short(arg, 30)})  # before timing",
                        )
                        break


# Timing these is timing the transfer on purpose (`%time x = jax.device_put(x_np)`).
_EXPLICIT_TRANSFERS = frozenset({"jax.device_put", "jax.numpy.asarray", "jax.numpy.array"})


def _runs_jax(ctx: Context, call: ast.Call) -> bool:
    """``call`` hands its arguments to JAX: a jitted function, a ``jnp`` operation, or a local function that does."""
    if ctx.facts.calls_jax_callable(call) or call_kind(ctx.names.qualname(call.func) or "") == "jax":
        return True
    func = call.func
    if isinstance(func, (ast.Subscript, ast.IfExp)) or (isinstance(func, ast.Name) and ctx.facts.def_named(func.id, call) is None):
        if ctx.kinds.of(call) == "jax":
            return True  # `ops["jax"](x)`, `for op in (jnp.dot, np.dot): op(x)`: a JAX function it may be
    function = ctx.facts.local_def(call)
    return function is not None and function not in ctx.facts.jitted_defs and (
        ctx.kinds.returned(function) == "jax" or dispatches_jax(ctx, function)
    )


def check_cuda_sync(ctx: Context) -> Iterator[Diagnostic]:
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
            synchronized.update(ast.unparse(c) for c in calls)
            continue
        unsynchronized.append((region, calls))
    for region, calls in unsynchronized:
        work = next((c for c in calls if _torch_work(ctx, c) or ast.unparse(c) in synchronized), None)
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


def _synchronizes(ctx: Context, call: ast.Call) -> bool:
    if isinstance(call.func, ast.Attribute) and call.func.attr in ("synchronize", "elapsed_time"):
        return True
    copied = is_host_copy(ctx, call)
    return copied is not None and ctx.kinds.of(copied) == "torch"


def _torch_work(ctx: Context, call: ast.Call) -> bool:
    if ctx.facts.is_torch_model_call(call) or ctx.kinds.of(call) == "torch":
        return True
    function = ctx.facts.local_def(call)
    return function is not None and any(
        isinstance(n, ast.Call) and (ctx.facts.is_torch_model_call(n) or ctx.kinds.of(n) == "torch")
        for n in local_walk(ctx.program, function)
    )
