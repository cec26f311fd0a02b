"""Where PyTorch records no autograd graph: under ``with torch.no_grad():`` (or ``inference_mode``,
``set_grad_enabled(False)``) and in a function decorated with one. LB112 asks whether a timed model call records a
graph; LB116 asks whether an unknown callable is torch work (a callable the code runs with gradients off is a torch
module or function: nothing else has a gradient to turn off)."""

from __future__ import annotations

import ast

from ._context import Context

GRAD_OFF = frozenset(
    {
        "torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad", "torch.autograd.inference_mode",
        "torch.autograd.grad_mode.no_grad", "torch.autograd.grad_mode.inference_mode",
    }
)

GRAD_SWITCH = frozenset(
    {"torch.set_grad_enabled", "torch.autograd.set_grad_enabled", "torch.autograd.grad_mode.set_grad_enabled"}
)


def turns_grad_off(ctx: Context, expr: ast.AST) -> bool:
    """``expr`` (a ``with`` item or a decorator) turns autograd off: ``torch.no_grad()``, an alias of it, one kept in a
    container (``fns["no_grad"]()``, every element it may be agreeing), ``torch.set_grad_enabled(False)``."""
    callee = expr.func if isinstance(expr, ast.Call) else expr
    if isinstance(callee, ast.Subscript):
        held = ctx.facts.bindings.elements(callee.value, callee)
        return bool(held) and all(ctx.names.qualname(e) in GRAD_OFF for e in held)
    qualified = ctx.names.qualname(callee)
    if qualified in GRAD_OFF:
        return True
    if qualified in GRAD_SWITCH and isinstance(expr, ast.Call) and expr.args:
        return isinstance(expr.args[0], ast.Constant) and expr.args[0].value is False
    return False


def grad_off_around(ctx: Context, node: ast.AST) -> bool:
    """A ``with torch.no_grad():`` block or a ``@torch.no_grad()`` function encloses ``node``."""
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, (ast.With, ast.AsyncWith)):
            if any(turns_grad_off(ctx, item.context_expr) for item in ancestor.items):
                return True
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef)):
            if any(turns_grad_off(ctx, d) for d in ancestor.decorator_list):
                return True
    return False


def forward_without_grad(ctx: Context, call: ast.Call) -> bool:
    """``call`` runs a callable the file does not show (no library function, no local def) with autograd off, on a
    tensor the code put on a device (``.cuda()``, ``.to(device)``, or the device its function is handed): a torch
    module's forward, since nothing else has a gradient to turn off (pytorch-benchmark's ``device_result =
    model(device_sample)`` under ``with torch.no_grad():``, case 339). A tensor the code keeps on the CPU, or a value
    the code does not place, does not make it one."""
    if ctx.names.qualname(call.func) is not None or ctx.facts.local_def(call) is not None:
        return False
    given = [*call.args, *(k.value for k in call.keywords)]
    return any(ctx.devices.of(a) in ("cuda", "handed") for a in given) and grad_off_around(ctx, call)
