"""LB108, float64-without-x64: the check and its fix; the rule's words are its catalogue entry.

    jnp.float64 without x64         ->  jax.config.update("jax_enable_x64", True) at the top  (unsafe)
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Fix
from .._edits import as_fix, never_hides_the_finding
from .._syntax import short

CODE = "LB108"


_JAX_WIDE = frozenset({"jax.numpy.float64", "jax.numpy.double", "jax.numpy.complex128", "jax.numpy.cdouble"})


_NUMPY_WIDE = frozenset({"numpy.float64", "numpy.double", "numpy.complex128", "numpy.cdouble", "builtins.complex"})


_WIDE_STRINGS = frozenset({"float64", "f8", "double", "complex128", "c16", "<f8"})


def check(ctx: Context) -> Iterator[Diagnostic]:
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


@never_hides_the_finding
def enable_x64(ctx: Context) -> Fix | None:
    """``jax.config.update("jax_enable_x64", True)`` after the file's leading imports."""
    editor = ctx.editor
    point = editor.import_point()
    if point is None:
        return None
    line, after = point
    name = editor.module_name("jax", (line + (1 if after else 0), 0))
    text = 'jax.config.update("jax_enable_x64", True)'
    if name is None:
        if not ctx.names.free_for("jax", "jax"):
            return None
        text = "import jax\n" + text
    else:
        text = text.replace("jax.", f"{name}.", 1)
    return as_fix([editor.add_lines_at_top(text)], "enable float64 in JAX before any array is made")
