"""Small syntax-tree helpers shared by the checks: scoped walks, loops, positions."""

from __future__ import annotations

import ast
from collections.abc import Iterator

from ._names import dotted
from ._program import Program

FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)
SCOPES = (*FUNCTIONS, ast.ClassDef)
LOOPS = (ast.For, ast.AsyncFor, ast.While)
COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)
_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def local_walk(program: Program, node: ast.AST) -> Iterator[ast.AST]:
    """Everything below ``node``, not entering nested functions, lambdas or classes (but yielding them)."""
    walk = program.walk(node, skip=SCOPES)
    next(walk)
    yield from walk


def walk_code(program: Program, nodes: list[ast.AST] | tuple[ast.AST, ...]) -> Iterator[ast.AST]:
    """Every node in ``nodes`` and below them, not entering nested functions or classes (lambdas yes)."""
    for node in nodes:
        if isinstance(node, _DEFS):
            yield node
        else:
            yield from program.walk(node, skip=_DEFS)


def position(node: ast.AST) -> tuple[int, int]:
    """Program order: (virtual line, column)."""
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def enclosing_function(program: Program, node: ast.AST) -> ast.AST | None:
    """The innermost def or lambda around ``node``, None at module level."""
    for ancestor in program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return ancestor
    return None


def enclosing_loop(program: Program, node: ast.AST) -> ast.AST | None:
    """The innermost loop or comprehension around ``node`` in the same function, if any."""
    child = node
    for ancestor in program.ancestors(node):
        if isinstance(ancestor, FUNCTIONS):
            return None
        if isinstance(ancestor, LOOPS) and child is not getattr(ancestor, "iter", None):
            return ancestor
        if isinstance(ancestor, COMPREHENSIONS):
            return ancestor
        child = ancestor
    return None


def short(node: ast.AST, limit: int = 60) -> str:
    """Source text of ``node`` on one line, shortened to ``limit`` characters."""
    text = " ".join(unparse(node).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def unparse(node: ast.AST) -> str:
    """``ast.unparse(node)``, written directly for the commonest shapes: a name, an attribute chain, and a call
    of one with names as arguments (``f(x)``, ``jnp.dot(a, b)``). ``ast.unparse`` is pure Python (~50 us a
    node), and a long file asks for the text of thousands of calls."""
    name = dotted(node)
    if name is not None:
        return name
    if isinstance(node, ast.Call):
        func = dotted(node.func)
        if func is not None and all(isinstance(a, ast.Name) for a in node.args) and all(
            k.arg is not None and isinstance(k.value, ast.Name) for k in node.keywords
        ):
            parts = [a.id for a in node.args] + [f"{k.arg}={k.value.id}" for k in node.keywords]  # type: ignore[attr-defined]
            return f"{func}({', '.join(parts)})"
    return ast.unparse(node)
