"""Walk nested containers of arrays (pytrees) without requiring jax.

If jax is already imported, its registry is used so Flax ``FrozenDict``s and custom pytrees are
walked too; otherwise tuples, lists, dicts and namedtuples are.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Any


def leaves_with_paths(tree: Any) -> list[tuple[str, Any]]:
    """``[(path, leaf), ...]`` with paths like ``[0]['w']``; ``None`` leaves are dropped."""
    if "jax" in sys.modules:
        import jax  # already imported by the user's code: free

        flat, _ = jax.tree_util.tree_flatten_with_path(tree)
        return [(jax.tree_util.keystr(path), leaf) for path, leaf in flat]
    return list(_walk(tree, ""))


def leaves(tree: Any) -> list[Any]:
    return [leaf for _, leaf in leaves_with_paths(tree)]


def _walk(tree: Any, path: str) -> Iterator[tuple[str, Any]]:
    if tree is None:
        return
    if isinstance(tree, dict):
        for k in sorted(tree, key=repr):
            yield from _walk(tree[k], f"{path}[{k!r}]")
    elif isinstance(tree, tuple) and hasattr(tree, "_fields"):  # a namedtuple: by field, as jax names it
        for field, v in zip(tree._fields, tree):
            yield from _walk(v, f"{path}.{field}")
    elif isinstance(tree, (list, tuple)):
        for i, v in enumerate(tree):
            yield from _walk(v, f"{path}[{i}]")
    else:
        yield path, tree
