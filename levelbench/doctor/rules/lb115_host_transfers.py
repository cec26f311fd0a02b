"""LB115, host-transfer-timed: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._effects import dispatches_jax, is_host_copy
from .._kinds import call_kind
from .._syntax import short

CODE = "LB115"


def check(ctx: Context) -> Iterator[Diagnostic]:
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
