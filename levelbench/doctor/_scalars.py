"""Which JAX values are one number: what reading them back copies a few bytes, not an array.

A timing that ends by printing a price and its sensitivities (``price, grads = jax.value_and_grad(f, argnums=(0,
1))(spot, strike)``, then ``print(f"{price}")`` and ``print(f"{grads[0]}")`` before the end read, AADC-Python's
benchmark, case 531) waits for its work by reading the results back; when each is a scalar, the copy is no transfer
worth a finding (the reading of a NumPy scalar handed to JAX, case 460, and of a loss logged once per interval). An
array printed there is still a copy (`jnp.exp(v)` of ``v = jnp.ones(3)``). Unknown is the safe answer: a value is a
scalar only when the code shows it.
"""

from __future__ import annotations

import ast

from ._context import Context
from ._effects import printed_values
from ._regions import TimedRegion
from ._syntax import enclosing_loop, unparse

# The value of these transforms, called, is what the function returns: a scalar, JAX requires it.
_VALUE_AND_GRAD = frozenset({"jax.value_and_grad"})
_GRAD = frozenset({"jax.grad"})
# Full reductions: one number when no axis is given.
_REDUCTIONS = frozenset({"sum", "mean", "max", "min", "prod", "std", "var", "median", "norm", "logsumexp"})
# Array makers whose result has the shape of the one value they are given.
_ARRAY_OF = frozenset({"jax.numpy.array", "jax.numpy.asarray", "jax.numpy.float32", "jax.numpy.float64",
                       "jax.numpy.int32", "jax.numpy.int64"})


def jax_scalar(ctx: Context, expr: ast.AST, depth: int = 0) -> bool:
    """``expr`` is one number as the code shows it: the value of a ``jax.value_and_grad`` call (JAX requires the
    function to return a scalar), a gradient with respect to an argument that is a scalar, a full reduction
    (``jnp.mean(x)``, ``x.sum()``, no axis), or ``jnp.array`` of a number or of a value that is neither an array nor
    a Python container (``jnp.array(settings.SPOT)``, a setting)."""
    if depth > 4:
        return False
    if isinstance(expr, ast.Name):
        found = _unpacked(ctx, expr)
        if found is not None:
            value, index = found
            return _transform_output(ctx, value, index, None, depth)
        value = ctx.facts.bindings.reaching(expr.id, expr)
        return value is not None and jax_scalar(ctx, value, depth + 1)
    if isinstance(expr, ast.Subscript) and isinstance(expr.value, ast.Name) \
            and isinstance(expr.slice, ast.Constant) and isinstance(expr.slice.value, int):
        found = _unpacked(ctx, expr.value)
        if found is not None:
            value, index = found
            return _transform_output(ctx, value, index, expr.slice.value, depth)
        return False
    if isinstance(expr, ast.Call):
        return _reduces_fully(ctx, expr) or _array_of_a_number(ctx, expr, depth)
    return False


def _unpacked(ctx: Context, name: ast.Name) -> tuple[ast.Call, int] | None:
    """The call whose result ``name`` was unpacked from, and its position: ``price, grads = vg(...)`` for ``grads``
    is (``vg(...)``, 1). The last such assignment before ``name`` in its statement list or one around it."""
    statement: ast.AST = name
    for ancestor in ctx.program.ancestors(name):
        body = getattr(ancestor, "body", None)
        if isinstance(body, list) and statement in body:
            for earlier in reversed(body[: body.index(statement)]):
                if isinstance(earlier, ast.Assign) and len(earlier.targets) == 1 \
                        and isinstance(earlier.targets[0], ast.Tuple) and isinstance(earlier.value, ast.Call):
                    names = [e.id if isinstance(e, ast.Name) else None for e in earlier.targets[0].elts]
                    if name.id in names:
                        return earlier.value, names.index(name.id)
                if name.id in {n.id for n in ast.walk(earlier) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)}:
                    return None  # bound some other way after the unpacking
        if isinstance(ancestor, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.Module)):
            return None
        statement = ancestor
    return None


def _transform_output(ctx: Context, call: ast.Call, index: int, element: int | None, depth: int) -> bool:
    """Position ``index`` (and tuple ``element``) of what ``call`` returns is a scalar: ``call`` runs a
    ``jax.value_and_grad`` (0: the value; 1: the gradients) or a ``jax.grad``, built there or bound to the name it
    calls."""
    for made in [call.func, *ctx.facts.callee_values(call.func)]:
        if not isinstance(made, ast.Call) or not made.args:
            continue
        transform = ctx.names.qualname(made.func)
        if transform not in _VALUE_AND_GRAD | _GRAD or any(k.arg == "has_aux" for k in made.keywords):
            continue
        if transform in _VALUE_AND_GRAD and index == 0:
            return element is None
        gradients = index == 1 if transform in _VALUE_AND_GRAD else False
        if gradients:
            return _gradient_scalar(ctx, made, call, element, depth)
    return False


def _gradient_scalar(ctx: Context, made: ast.Call, call: ast.Call, element: int | None, depth: int) -> bool:
    """The gradient ``element`` of the gradients ``call`` returns (``made`` its ``value_and_grad``) has the shape of
    the argument it is taken with respect to: a scalar when that argument is one."""
    argnums = next((k.value for k in made.keywords if k.arg == "argnums"), None)
    if argnums is None:
        positions = [0]
    elif isinstance(argnums, ast.Constant) and isinstance(argnums.value, int):
        positions = [argnums.value]
    elif isinstance(argnums, ast.Tuple) and all(isinstance(e, ast.Constant) and isinstance(e.value, int)
                                                  for e in argnums.elts):
        positions = [e.value for e in argnums.elts]  # type: ignore[attr-defined]
    else:
        return False
    if element is None:
        if len(positions) != 1 or argnums is not None and isinstance(argnums, ast.Tuple):
            return False  # a tuple of gradients is no number
        element = 0
    elif not isinstance(argnums, ast.Tuple) or element >= len(positions):
        return False
    at = positions[element]
    if at >= len(call.args) or any(isinstance(a, ast.Starred) for a in call.args[: at + 1]):
        return False
    return jax_scalar(ctx, call.args[at], depth + 1) or _number(call.args[at])


def _reduces_fully(ctx: Context, call: ast.Call) -> bool:
    """``jnp.mean(x)`` or ``x.mean()`` with no axis: one number."""
    if call.keywords and any(k.arg in ("axis", "axes", "keepdims") for k in call.keywords):
        return False
    qualified = ctx.names.qualname(call.func) or ""
    if qualified.startswith("jax.numpy.") and qualified.rsplit(".", 1)[-1] in _REDUCTIONS:
        return len(call.args) == 1
    if isinstance(call.func, ast.Attribute) and call.func.attr in _REDUCTIONS and not call.args:
        return ctx.kinds.of(call.func.value) == "jax"
    return False


def _array_of_a_number(ctx: Context, call: ast.Call, depth: int) -> bool:
    """``jnp.array(2.0)``, ``jnp.asarray(settings.SPOT)``: an array of one value that is a number, or neither an
    array nor a Python container as the code shows it."""
    if ctx.names.qualname(call.func) not in _ARRAY_OF or len(call.args) != 1:
        return False
    value = call.args[0]
    if _number(value):
        return True
    if isinstance(value, ast.Name):
        reaching = ctx.facts.bindings.reaching(value.id, value)
        return reaching is not None and _number(reaching)
    if isinstance(value, ast.Attribute) and isinstance(value.value, ast.Name) and value.attr.isupper():
        # `settings.SPOT`: a setting of a module of constants, read by an upper-case name
        return ctx.kinds.of(value) is None and not ctx.facts.bindings.values_at(unparse(value), value)
    return False


def _number(value: ast.AST) -> bool:
    if isinstance(value, ast.UnaryOp) and isinstance(value.op, (ast.USub, ast.UAdd)):
        value = value.operand
    return isinstance(value, ast.Constant) and type(value.value) in (int, float)


def reads_back_scalars(ctx: Context, region: TimedRegion, call: ast.Call, copied: ast.AST) -> bool:
    """``call`` reads ``copied`` back inside ``region`` once per timed run, and what it reads is scalars: every JAX
    value a ``print`` formats, or the one value another read converts (``float(loss)``). Outside any loop inside the
    timing, such a read is the wait the figure needs, and its copy is a few bytes (case 531's printed price and
    sensitivities). In a loop inside the timing, a read on every step stalls the queue: that stays LB115's."""
    if region.harness or region.samples not in ("single", "per-iteration"):
        return False
    loop = enclosing_loop(ctx.program, call)
    if loop is not None and any(loop is s or s in ctx.program.ancestors(loop) for s in region.statements):
        return False
    if ctx.names.qualname(call.func) == "builtins.print":
        read = [part for part in printed_values(call) if ctx.kinds.of(part) == "jax"]
    else:
        read = [copied]
    return bool(read) and all(jax_scalar(ctx, value) for value in read)
