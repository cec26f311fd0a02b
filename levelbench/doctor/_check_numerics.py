"""Rules about what is computed: LB108 (float64 without x64), LB109 (shape passed as ``loc``),
LB110 (NumPy ``x @ x.T``, which BLAS runs as SYRK)."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._context import Context
from ._diagnostic import Diagnostic
from ._fixes import enable_x64, size_keyword
from ._names import dotted
from ._syntax import short

_JAX_WIDE = frozenset({"jax.numpy.float64", "jax.numpy.double", "jax.numpy.complex128", "jax.numpy.cdouble"})
_NUMPY_WIDE = frozenset({"numpy.float64", "numpy.double", "numpy.complex128", "numpy.cdouble", "builtins.complex"})
_WIDE_STRINGS = frozenset({"float64", "f8", "double", "complex128", "c16", "<f8"})

# Sampler -> name of its first parameter, which a shape tuple lands in by mistake.
_SAMPLERS = {
    "normal": "loc", "uniform": "low", "laplace": "loc", "logistic": "loc", "lognormal": "mean", "gumbel": "loc",
    "exponential": "scale", "gamma": "shape", "standard_gamma": "shape", "beta": "a", "poisson": "lam",
    "rayleigh": "scale", "wald": "mean", "weibull": "a", "pareto": "a", "power": "a", "chisquare": "df",
    "standard_t": "df", "binomial": "n", "geometric": "p", "vonmises": "mu", "triangular": "left",
}
_SIZE_POSITION = {"normal": 2, "uniform": 2, "laplace": 2, "logistic": 2, "lognormal": 2, "gumbel": 2, "gamma": 2,
                  "beta": 2, "wald": 2, "binomial": 2, "vonmises": 2, "triangular": 3}


def check_float64(ctx: Context) -> Iterator[Diagnostic]:
    """LB108: float64 asked of JAX in a file that never enables x64; once per file, at the first request.

    Only where the file runs code (`Context.runs_here`), and not in library functions
    (`Context.callers_decide`): a library that asks for float64 leaves x64 to the program that calls it.
    """
    if ctx.facts.x64 or "jax" not in ctx.facts.frameworks or not ctx.runs_here:
        return
    requests: list[ast.AST] = []
    for node in ctx.program.of_type(ast.Attribute, ast.Call):
        culprit: ast.AST | None = None
        if isinstance(node, ast.Attribute) and ctx.names.qualname(node) in _JAX_WIDE and _requests(ctx, node):
            culprit = node
        elif isinstance(node, ast.Call):
            culprit = _wide_dtype_argument(ctx, node)
        if culprit is not None and ctx.callers_decide(culprit):
            continue  # a library function: the program that calls it decides whether x64 is on
        if culprit is not None and all(culprit is not r for r in requests):
            requests.append(culprit)
    if not requests:
        return
    first = requests[0]
    evidence = "no jax.config.update('jax_enable_x64', True) (or JAX_ENABLE_X64) anywhere in the file"
    if len(requests) > 1:
        others = ", ".join(ctx.where(r) for r in requests[1:4]) + (", ..." if len(requests) > 4 else "")
        evidence += f"; float64 is also requested at {others}"
    yield ctx.report(
        "LB108",
        first,
        f"float64 requested (`{short(first, 30)}`) but `jax_enable_x64` is never set in this file: JAX "
        "silently computes in float32",
        evidence=evidence,
        fix='jax.config.update("jax_enable_x64", True)  # at the top, before creating arrays',
        edits=lambda: enable_x64(ctx),
    )


def _requests(ctx: Context, dtype: ast.AST) -> bool:
    """``jnp.float64`` used to ask JAX for a dtype (``dtype=``, an argument, ``jnp.float64(1.0)``), not compared,
    and not handed to NumPy (``onp.array(a, dtype=jnp.float64)`` is a NumPy float64 array)."""
    parent = ctx.program.parent(dtype)
    if isinstance(parent, ast.keyword):
        if parent.arg != "dtype":
            return False
        parent = ctx.program.parent(parent)
    elif not isinstance(parent, ast.Call) or dtype is parent.func:
        return isinstance(parent, ast.Call)
    return isinstance(parent, ast.Call) and not _numpy_call(ctx, parent) and not _inspects_dtypes(ctx, parent)


# Calls that look a dtype up (`jax.dtypes.canonicalize_dtype(jnp.float64)` asks whether x64 is on) rather
# than make arrays of it.
_DTYPE_QUERIES = ("jax.dtypes.", "jax.numpy.dtype", "jax.numpy.finfo", "jax.numpy.iinfo", "jax.numpy.issubdtype",
                  "jax.numpy.result_type", "jax.numpy.promote_types", "jax.numpy.can_cast")


def _inspects_dtypes(ctx: Context, call: ast.Call) -> bool:
    return (ctx.names.qualname(call.func) or "").startswith(_DTYPE_QUERIES)


def _numpy_call(ctx: Context, call: ast.Call) -> bool:
    if (ctx.names.qualname(call.func) or "").startswith("numpy."):
        return True
    return isinstance(call.func, ast.Attribute) and ctx.kinds.of(call.func.value) == "numpy"


def _wide_dtype_argument(ctx: Context, call: ast.Call) -> ast.AST | None:
    """``dtype=np.float64`` given to a JAX function, or ``.astype("float64")`` on a JAX value."""
    qualified = ctx.names.qualname(call.func) or ""
    if qualified.startswith("jax."):
        for kw in call.keywords:
            if kw.arg == "dtype" and _is_wide(ctx, kw.value):
                return kw.value
    if isinstance(call.func, ast.Attribute) and call.func.attr == "astype" and call.args:
        if ctx.kinds.of(call.func.value) == "jax" and _is_wide(ctx, call.args[0]):
            return call.args[0]
    return None


def _is_wide(ctx: Context, node: ast.AST) -> bool:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.strip().lower() in _WIDE_STRINGS
    qualified = ctx.names.qualname(node)
    return qualified in _JAX_WIDE or qualified in _NUMPY_WIDE


def check_shape_as_loc(ctx: Context) -> Iterator[Diagnostic]:
    """LB109: ``np.random.normal((n, n))`` -- the tuple is ``loc``, not ``size``."""
    for node in ctx.program.of_type(ast.Call):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        sampler = _numpy_sampler(ctx, node)
        if sampler is None:
            continue
        first = node.args[0]
        if not isinstance(first, (ast.Tuple, ast.List)) or not first.elts:
            continue
        if any(kw.arg == "size" for kw in node.keywords) or len(node.args) > _SIZE_POSITION.get(sampler, 1):
            continue
        parameter = _SAMPLERS[sampler]
        shape = ast.unparse(first)
        yield ctx.report(
            "LB109",
            first,
            f"shape `{shape}` is passed as `{parameter}` of {short(node.func)}, not as its size: it draws "
            f"{len(first.elts)} number{'s' if len(first.elts) > 1 else ''}, not an array of shape {shape}",
            evidence=f"the first parameter of {sampler}() is `{parameter}`; the shape goes in `size=`",
            fix=f"{short(node.func)}(size={shape})\n# or: rng = np.random.default_rng(0); rng.standard_normal({shape})",
            edits=lambda: size_keyword(ctx, node, sampler),
        )


def _numpy_sampler(ctx: Context, call: ast.Call) -> str | None:
    func = call.func
    if not isinstance(func, ast.Attribute) or func.attr not in _SAMPLERS:
        return None
    qualified = ctx.names.qualname(func) or ""
    if qualified == f"numpy.random.{func.attr}":
        return func.attr
    if dotted(func.value) in ctx.facts.rngs:  # rng = np.random.default_rng(); rng.normal((n, n))
        return func.attr
    return None


def check_syrk(ctx: Context) -> Iterator[Diagnostic]:
    """LB110: NumPy multiplying an array by its own transpose (SYRK, half the FLOPs)."""
    if not ctx.facts.frameworks & {"jax", "torch", "flax"}:
        return  # nothing here runs a general product to compare with
    timed = ctx.timed_ids
    for node in ctx.program.of_type(ast.BinOp, ast.Call):
        if id(node) not in timed:
            continue
        pair = _matmul_operands(ctx, node)
        if pair is None:
            continue
        left, right = pair
        base = _self_transposed(ctx, left, right)
        if base is None:
            continue
        name = short(base, 30)
        yield ctx.report(
            "LB110",
            node,
            f"NumPy `{short(node)}` multiplies `{name}` by its own transpose: BLAS runs it as SYRK, about half the "
            "FLOPs of the general product JAX/PyTorch compute",
            evidence="the same array is on both sides of the product, one side transposed",
            fix=(
                f"other = rng.standard_normal({name}.shape)  # a distinct operand, same shape\n"
                + short(node).replace(name + ".T", "other.T", 1)
            ),
        )


def _matmul_operands(ctx: Context, node: ast.AST) -> tuple[ast.AST, ast.AST] | None:
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.MatMult):
        if ctx.kinds.of(node.left) == "numpy" and ctx.kinds.of(node.right) == "numpy":
            return node.left, node.right
        return None
    if not isinstance(node, ast.Call):
        return None
    if isinstance(node.func, ast.Attribute) and node.func.attr == "dot" and len(node.args) == 1:  # x.dot(x.T)
        if ctx.kinds.of(node.func.value) == "numpy":
            return node.func.value, node.args[0]
        return None
    if len(node.args) != 2:
        return None
    qualified = ctx.names.qualname(node.func)
    if qualified in ("numpy.dot", "numpy.matmul"):
        if ctx.kinds.of(node.args[0]) in ("jax", "torch"):
            return None
        return node.args[0], node.args[1]
    if qualified == "numpy.inner":  # inner(x, x) == x @ x.T
        left, right = node.args
        transposed = ast.Attribute(value=right, attr="T", ctx=ast.Load())
        return left, transposed
    return None


def _self_transposed(ctx: Context, left: ast.AST, right: ast.AST) -> ast.AST | None:
    """``x`` when the operands are ``x`` and a transpose of ``x`` (either order)."""
    for plain, other in ((left, right), (right, left)):
        inner = _transposed(ctx, other)
        if inner is not None and ast.dump(inner) == ast.dump(plain) and not isinstance(plain, ast.Constant):
            return plain
    return None


def _transposed(ctx: Context, node: ast.AST) -> ast.AST | None:
    if isinstance(node, ast.Attribute) and node.attr in ("T", "mT"):
        return node.value
    if isinstance(node, ast.Call):
        if isinstance(node.func, ast.Attribute) and node.func.attr == "transpose" and not node.args:
            return node.func.value
        if ctx.names.qualname(node.func) == "numpy.transpose" and len(node.args) == 1:
            return node.args[0]
    return None
