"""A syntax tree indexed once, so that every later walk is cheap.

``ast.walk`` re-discovers children through generic field iteration on every call, and the doctor
walks the same trees many times (each rule, each region, each function). One pre-order pass
records every node, its parent and the end of its subtree; a walk is then a slice of a list,
a parent a list lookup, and "all calls" a precomputed list.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Iterator

# Context and operator nodes carry no code of their own (and CPython shares them between nodes).
_LEAVES = (ast.expr_context, ast.operator, ast.boolop, ast.unaryop, ast.cmpop)
_SCALAR_FIELDS = frozenset(
    {
        "id", "attr", "name", "arg", "ctx", "op", "type_comment", "kind", "level", "is_async", "conversion", "module",
        "asname", "simple",
    }
)
_FIELD_CACHE: dict[type, tuple[str, ...]] = {}


def _child_fields(cls: type) -> tuple[str, ...]:
    """The fields of a node class that can hold child nodes (names, operators and constants cannot), last first."""
    fields = _FIELD_CACHE.get(cls)
    if fields is None:
        fields = tuple(
            f for f in reversed(cls._fields) if f not in _SCALAR_FIELDS and not (cls is ast.Constant and f == "value")
        )
        _FIELD_CACHE[cls] = fields
    return fields


class TreeIndex:
    """Pre-order index of one tree: ``nodes`` in program order, parents, subtree ends, nodes by type."""

    def __init__(self, root: ast.AST) -> None:
        nodes: list[ast.AST] = []
        up: list[int] = []  # index of each node's parent
        by_class: dict[type, list[int]] = {}
        pending: list[ast.AST] = [root]
        pending_up: list[int] = [-1]
        cache, node_type, leaves = _FIELD_CACHE, ast.AST, _LEAVES
        push, push_up = pending.append, pending_up.append
        while pending:
            node = pending.pop()
            position = len(nodes)
            nodes.append(node)
            up.append(pending_up.pop())
            cls = node.__class__
            found = by_class.get(cls)
            if found is None:
                by_class[cls] = [position]
            else:
                found.append(position)
            fields = cache.get(cls)
            if fields is None:
                fields = _child_fields(cls)
            # Children pushed last first, so that the first child is popped (visited) first.
            for field in fields:
                value = getattr(node, field, None)
                if value.__class__ is list:
                    for item in reversed(value):
                        if isinstance(item, node_type):
                            push(item)
                            push_up(position)
                elif isinstance(value, node_type) and not isinstance(value, leaves):
                    push(value)
                    push_up(position)
        ends = list(range(1, len(nodes) + 1))  # one past each node's last descendant
        for i in range(len(nodes) - 1, 0, -1):
            parent = up[i]
            if ends[i] > ends[parent]:
                ends[parent] = ends[i]
        self.nodes = nodes
        self._up = up
        self._ends = ends
        self._by_class = by_class
        self._index: dict[ast.AST, int] = {node: i for i, node in enumerate(nodes)}
        self._by_type: dict[tuple[type, ...], list[ast.AST]] = {}
        self._names: dict[str, NameUses | list[tuple[tuple[int, int], int]]] | None = None

    def parent(self, node: ast.AST) -> ast.AST | None:
        i = self._index.get(node)
        return None if i is None or i == 0 else self.nodes[self._up[i]]

    def ancestors(self, node: ast.AST) -> Iterator[ast.AST]:
        """Parent, grandparent, ... up to the root; nothing for a node outside the tree."""
        i = self._index.get(node)
        if i is None:
            return
        while i > 0:
            i = self._up[i]
            yield self.nodes[i]

    def of_type(self, *types: type) -> list[ast.AST]:
        """Every node of these (concrete) types, in pre-order."""
        if types not in self._by_type:
            positions = sorted(i for t in types for i in self._by_class.get(t, ()))
            self._by_type[types] = [self.nodes[i] for i in positions]
        return self._by_type[types]

    def span(self, node: ast.AST) -> tuple[int, int] | None:
        """Pre-order positions ``[first, end)`` of ``node`` and its subtree; None for a node outside the tree."""
        i = self._index.get(node)
        return None if i is None else (i, self._ends[i])

    def name_uses(self, name: str) -> NameUses:
        """Every ``ast.Name`` with this ``id``, in source order (the names grouped once, each sorted when asked)."""
        names = self._name_index()
        uses = names.get(name)
        if uses is None:
            return NameUses([], self.nodes)
        if uses.__class__ is list:
            uses = names[name] = NameUses(sorted(uses), self.nodes)  # type: ignore[arg-type]
        return uses  # type: ignore[return-value]

    def identifiers(self) -> frozenset[str]:
        """Every ``id`` an ``ast.Name`` of the tree has."""
        return frozenset(self._name_index())

    def _name_index(self) -> dict[str, NameUses | list[tuple[tuple[int, int], int]]]:
        """Each identifier's uses: a list of ((line, column), pre-order position) until asked for, then its
        `NameUses` (a long file has tens of thousands of names; the checks ask about a few)."""
        if self._names is None:
            grouped: dict[str, NameUses | list[tuple[tuple[int, int], int]]] = {}
            for i in self._by_class.get(ast.Name, ()):
                node = self.nodes[i]
                grouped.setdefault(node.id, []).append(((node.lineno, node.col_offset), i))  # type: ignore
            self._names = grouped
        return self._names

    def walk(self, node: ast.AST, *, skip: tuple[type, ...] = ()) -> Iterator[ast.AST]:
        """``node`` and everything below it in pre-order; ``skip`` nodes below it are yielded, not entered."""
        start = self._index.get(node)
        if start is None:  # a node made up by a check (e.g. a parsed timeit string): walk it the slow way
            yield node
            for child in ast.iter_child_nodes(node):
                if skip and isinstance(child, skip):
                    yield child
                else:
                    yield from self.walk(child, skip=skip)
            return
        yield node
        i, end = start + 1, self._ends[start]
        nodes, ends = self.nodes, self._ends
        while i < end:
            current = nodes[i]
            yield current
            i = ends[i] if skip and isinstance(current, skip) else i + 1


class NameUses:
    """The ``ast.Name`` nodes of one identifier, sorted by (line, column), for "the next use after here"."""

    def __init__(self, entries: list[tuple[tuple[int, int], int]], nodes: list[ast.AST]) -> None:
        self._positions = [position for position, _ in entries]
        self._order = [i for _, i in entries]
        self._nodes = nodes
        self.preorder = sorted(self._order)  # the same nodes' pre-order positions, ascending

    def after(self, position: tuple[int, int]) -> Iterator[tuple[int, ast.Name]]:
        """(pre-order position, node) of each use strictly after ``position`` in the source, in source order."""
        start = bisect.bisect_right(self._positions, position)
        for k in range(start, len(self._order)):
            i = self._order[k]
            yield i, self._nodes[i]  # type: ignore[misc]
