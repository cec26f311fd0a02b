"""Which input axis is "the length" of a call, and how to shorten it.

Unrolled loops show up as a program that grows with the length of the sequence the loop runs
over, so the unrolled-loop probe traces the function at a few short lengths, cut from one axis of
one argument. That axis is given (``scale_axis=``) or guessed:

    the leading axis of a positional array argument, of size >= 16, whose size differs from the
    leading axis of every other array in the call (weights and batches rarely share it with the
    sequence); among several, the longest.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import numpy as np

from .arguments import Leaf, is_array, leaves, rebuild

AUTO_MIN_LENGTH = 16
ScaleRequest = int | str | tuple[int | str, int] | bool | None


@dataclasses.dataclass(frozen=True)
class ScaleAxis:
    """Axis ``axis`` of the argument ``name`` (leaf ``index`` of the flattened call), ``length`` long."""

    index: int
    name: str
    axis: int
    length: int
    guessed: bool

    def describe(self) -> str:
        return f"axis {self.axis} of {self.name}" + (" (guessed: set scale_axis= to choose)" if self.guessed else "")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def choose(fn: Callable[..., Any], args: tuple, kwargs: dict, request: ScaleRequest) -> ScaleAxis | str:
    """The axis to scale, or the reason there is none.

    ``request``: None (guess), False (none), an int (that positional argument's leading axis), a
    str (that keyword or parameter name), or ``(argument, axis)``.
    """
    if request is False:
        return "scale_axis=False"
    named = leaves(fn, args, kwargs)
    if request is None or request is True:
        return _guess(named)
    argument, axis = request if isinstance(request, tuple) else (request, 0)
    leaf = _find(named, argument)
    if leaf is None:
        known = ", ".join(dict.fromkeys(n.name.split("[")[0] for n in named if is_array(n.value))) or "none"
        raise ValueError(
            f"scale_axis={request!r}: no array argument {argument!r} in this call; "
            f"array arguments are: {known} (give a position, a name, or (argument, axis))"
        )
    shape = np.shape(leaf.value)
    if not -len(shape) <= axis < len(shape):
        raise ValueError(f"scale_axis={request!r}: {leaf.name} has shape {shape}, no axis {axis}")
    axis %= len(shape)
    return ScaleAxis(leaf.index, leaf.name, axis, int(shape[axis]), guessed=False)


def _find(named: list[Leaf], argument: int | str) -> Leaf | None:
    for leaf in named:
        if not is_array(leaf.value):
            continue
        if isinstance(argument, int) and leaf.whole and leaf.position == argument:
            return leaf
        if isinstance(argument, str) and leaf.name == argument:
            return leaf
    return None


def _guess(named: list[Leaf]) -> ScaleAxis | str:
    arrays = [n for n in named if is_array(n.value) and np.ndim(n.value) >= 1]
    candidates = []
    for leaf in arrays:
        if not (leaf.whole and leaf.position is not None):
            continue
        length = int(np.shape(leaf.value)[0])
        if length < AUTO_MIN_LENGTH:
            continue
        if any(int(np.shape(o.value)[0]) == length for o in arrays if o.index != leaf.index):
            continue
        candidates.append((length, -leaf.index, leaf))
    if not candidates:
        return (
            f"no positional array argument has a leading axis of >= {AUTO_MIN_LENGTH} that no other "
            "input shares: give scale_axis= to say which axis is the sequence"
        )
    _, _, leaf = max(candidates, key=lambda c: c[:2])
    return ScaleAxis(leaf.index, leaf.name, 0, int(np.shape(leaf.value)[0]), guessed=True)


def candidates(fn: Callable[..., Any], args: tuple, kwargs: dict, tried: ScaleAxis | None,
               limit: int = 6) -> list[ScaleAxis]:
    """Every axis of every array argument at least `AUTO_MIN_LENGTH` long, longest first, other than
    ``tried``: a loop may run over the second axis (``m, n = A.shape``) or over any argument."""
    found = []
    for leaf in leaves(fn, args, kwargs):
        if not is_array(leaf.value):
            continue
        for axis, size in enumerate(np.shape(leaf.value)):
            if size >= AUTO_MIN_LENGTH and not (tried and (tried.index, tried.axis) == (leaf.index, axis)):
                found.append(ScaleAxis(leaf.index, leaf.name, axis, int(size), guessed=True))
    found.sort(key=lambda a: (-a.length, a.index, a.axis))
    return found[:limit]


def shorten(args: tuple, kwargs: dict, scale: ScaleAxis, length: int) -> tuple[tuple, dict]:
    """The call with the scaled argument cut to its first ``length`` entries along the axis."""
    import jax

    flat, _ = jax.tree_util.tree_flatten((args, kwargs))
    x = flat[scale.index]
    index = tuple(slice(None) if d != scale.axis else slice(0, length) for d in range(np.ndim(x)))
    return rebuild(args, kwargs, {scale.index: x[index]})


def probe_lengths(length: int) -> tuple[int, ...]:
    """Three short lengths to trace at (4, 8, 16 when the input allows), all shorter than ``length``
    when it is long enough, so nothing is compiled at the user's length."""
    top = min(16, length)
    lengths = sorted({max(1, top // 4), max(1, top // 2), top})
    return tuple(lengths) if len(lengths) == 3 else ()
