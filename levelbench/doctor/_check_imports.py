"""LB113: ``from jax import jix`` -- a name that the installed jax / numpy / torch does not have."""

from __future__ import annotations

import ast
import difflib
from collections.abc import Iterator

from ._context import Context
from ._diagnostic import Diagnostic
from ._installed import CHECKED_ROOTS, installed_version, is_installed, module_exists, name_exists, similar_names


def check_imports(ctx: Context) -> Iterator[Diagnostic]:
    """LB113: imports from jax / numpy / torch that fail with the installed versions."""
    for node in ctx.program.of_type(ast.Import, ast.ImportFrom):
        if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            root = node.module.split(".")[0]
            if not is_installed(root):
                continue
            if module_exists(node.module) is False:
                yield _missing_module(ctx, node, node.module)
                continue
            for alias in node.names:
                if alias.name != "*" and name_exists(node.module, alias.name) is False:
                    yield _missing_name(ctx, alias, node.module, alias.name)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                root = alias.name.split(".")[0]
                if root in CHECKED_ROOTS and "." in alias.name and module_exists(alias.name) is False:
                    yield _missing_module(ctx, alias, alias.name)


def _missing_name(ctx: Context, node: ast.AST, module: str, name: str) -> Diagnostic:
    root = module.split(".")[0]
    guess = difflib.get_close_matches(name, sorted(similar_names(module)), n=1)
    hint = f"; did you mean `{guess[0]}`?" if guess else ""
    return ctx.report(
        "LB113",
        node,
        f"`{name}` is not in `{module}` (installed {root} {installed_version(root)}): "
        f"this import raises ImportError{hint}",
        evidence=f"checked against the installed {root} package",
        fix=f"from {module} import {guess[0] if guess else '...'}",
    )


def _missing_module(ctx: Context, node: ast.AST, module: str) -> Diagnostic:
    root = module.split(".")[0]
    parent, _, last = module.rpartition(".")
    guess = difflib.get_close_matches(last, sorted(similar_names(parent)), n=1) if parent else []
    hint = f"; did you mean `{parent}.{guess[0]}`?" if guess else ""
    return ctx.report(
        "LB113",
        node,
        f"no module `{module}` in the installed {root} {installed_version(root)}: this import raises ImportError{hint}",
        evidence=f"checked against the installed {root} package",
        fix=f"import {parent}.{guess[0]}" if guess else f"# check the name: {module}",
    )
