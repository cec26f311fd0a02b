"""LB113, import-not-found: the check and its fix; the rule's words are its catalogue entry.

    from jax import jix             ->  from jax import jit
"""

from __future__ import annotations

import ast
import difflib
import re
from collections.abc import Iterable, Iterator

from .._context import Context
from .._diagnostic import Diagnostic, Edit, Fix
from .._edits import as_fix, never_hides_the_finding
from .._installed import CHECKED_ROOTS, installed_version, is_installed, module_exists, name_exists, similar_names

CODE = "LB113"


def check(ctx: Context) -> Iterator[Diagnostic]:
    """LB113: imports from jax / numpy / torch that fail with the installed versions.

    Guarded imports are left alone: under ``try: ... except ImportError`` (in the ``try`` or as the fallback in
    its handler, which runs where the first import failed), or under an ``if`` that tests for the name or the
    version (``hasattr(jax, "Ref")``, ``jax.__version__ >= ...``, ``JAX_GE_0_11``, ``TYPE_CHECKING``).
    """
    for node in ctx.program.of_type(ast.Import, ast.ImportFrom):
        if _guarded(ctx, node):
            continue
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


_IMPORT_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})


# A version flag names the version it tests: `JAX_GE_0_11_0`, `_JAX_LT_0410`, `NEW_JAX`.
_GUARD_WORDS = re.compile(
    r"(?i:hasattr|getattr|version|find_spec|__dict__|dir\()|TYPE_CHECKING|_(?:GE|GT|LE|LT|EQ)_?\d|\d_\d|(?i:new|old)_?jax"
)


def _guarded(ctx: Context, node: ast.AST) -> bool:
    child = node
    for ancestor in ctx.program.ancestors(node):
        if isinstance(ancestor, ast.Try) and any(child is s for s in ancestor.body):
            if any(_catches_import_errors(h) for h in ancestor.handlers):
                return True
        if isinstance(ancestor, ast.ExceptHandler) and _catches_import_errors(ancestor):
            return True  # the fallback for the versions where the import in the `try` fails
        if isinstance(ancestor, ast.If) and _GUARD_WORDS.search(ast.unparse(ancestor.test)):
            return True  # either branch: the other one is what runs where this import would fail
        child = ancestor
    return False


def _catches_import_errors(handler: ast.ExceptHandler) -> bool:
    if handler.type is None:
        return True
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return any((t.attr if isinstance(t, ast.Attribute) else getattr(t, "id", "")) in _IMPORT_ERRORS for t in types)


def _missing_name(ctx: Context, node: ast.alias, module: str, name: str) -> Diagnostic:
    root = module.split(".")[0]
    candidates = sorted(similar_names(module))
    guess = _misspelt(name, candidates)
    hint = f"; did you mean `{guess[0]}`?" if guess else ""
    return ctx.report(
        "LB113",
        node,
        f"`{name}` is not in `{module}` (installed {root} {installed_version(root)}): "
        f"this import raises ImportError{hint}",
        evidence=f"checked against the installed {root} package",
        fix=f"from {module} import {guess[0] if guess else '...'}",
        edits=(lambda: nearest_name(ctx, node, candidates)) if guess else None,
    )


def _missing_module(ctx: Context, node: ast.AST, module: str) -> Diagnostic:
    root = module.split(".")[0]
    parent, _, last = module.rpartition(".")
    if parent and name_exists(parent, last):  # an attribute (a lazily loaded submodule, say), not a module
        hint = f"; `{last}` is an attribute of `{parent}`, not a module: import it with `from`"
        fix = f"from {parent} import {last}"
    else:
        candidates = sorted(similar_names(parent) - {last}) if parent else []
        guess = _misspelt(last, candidates)
        hint = f"; did you mean `{parent}.{guess[0]}`?" if guess else ""
        fix = f"import {parent}.{guess[0]}" if guess else f"# check the name: {module}"
    return ctx.report(
        "LB113",
        node,
        f"no module `{module}` in the installed {root} {installed_version(root)}: this import raises ImportError{hint}",
        evidence=f"checked against the installed {root} package",
        fix=fix,
    )


def _misspelt(name: str, candidates: Iterable[str]) -> list[str]:
    """The closest of ``candidates`` when ``name`` reads as a misspelling of it (``jix`` for ``jit``, ``flaot64`` for
    ``float64``): a few characters typed wrong, dropped, added or swapped, at most one per four characters. A name
    that adds or drops a whole part (``util`` beside ``api_util``, ``tree_map`` beside ``tree``, ``Var`` beside
    ``DropVar``) is another name, and mostly one that an older version of the package had: no guess then."""
    guess = difflib.get_close_matches(name, list(candidates), n=1)
    return guess if guess and _typing_distance(name, guess[0]) <= max(1, len(name) // 4) else []


def _typing_distance(a: str, b: str) -> int:
    """Edits (a character replaced, dropped, added, or two neighbours swapped) that turn ``a`` into ``b``."""
    rows = [list(range(len(b) + 1))]
    for i in range(1, len(a) + 1):
        row = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a[i - 1] != b[j - 1]))
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


@never_hides_the_finding
def nearest_name(ctx: Context, alias: ast.alias, candidates: Iterable[str]) -> Fix | None:
    """``from jax import jix`` -> ``from jax import jit``, when one existing name is clearly the closest.

    Uses of the bad name in the file are renamed too (unless it was imported ``as`` another name).
    """
    ranked = sorted(
        ((difflib.SequenceMatcher(None, alias.name, c).ratio(), c) for c in candidates), reverse=True
    )
    if not ranked or ranked[0][0] < 0.6 or (len(ranked) > 1 and ranked[1][0] == ranked[0][0]):
        return None
    if not _misspelt(alias.name, [ranked[0][1]]):
        return None
    guess = ranked[0][1]
    editor = ctx.editor
    span = editor._span(alias)
    if span is None:
        return None
    line, col = span[0], span[1]
    edits: list[Edit | None] = [editor.edit(line, col, line, col + len(alias.name), guess)]
    if alias.asname is None:
        uses = [n for n in ctx.program.of_type(ast.Name) if isinstance(n, ast.Name) and n.id == alias.name]
        if uses and any(isinstance(n, ast.Name) and n.id == guess for n in ctx.program.of_type(ast.Name)):
            return None  # `jit` already means something here: renaming the uses would change it
        edits.extend(editor.replace(n, guess) for n in uses)
    return as_fix(edits, f"import `{guess}`, the closest existing name")
