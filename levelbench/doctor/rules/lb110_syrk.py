"""LB110, numpy-syrk-matmul: the check; the rule's words are its catalogue entry."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from .._context import Context
from .._diagnostic import Diagnostic
from .._syntax import short

CODE = "LB110"


def check(ctx: Context) -> Iterator[Diagnostic]:
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
