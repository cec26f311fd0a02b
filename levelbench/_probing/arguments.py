"""Naming what a function was called with: ``X``, ``params['dense']['kernel']``, ``args[2]``.

Findings name the culprit in the user's words: the parameter name from the signature, then the
path into the pytree. Flattening uses JAX's registry, so Flax ``FrozenDict``s and custom pytrees
are walked like dicts.
"""

from __future__ import annotations

import dataclasses
import inspect
from collections.abc import Callable
from typing import Any

import numpy as np


@dataclasses.dataclass(frozen=True)
class Call:
    """One call of a function: the positional and keyword arguments it gets.

    Example:
        >>> calls = [Call(x, n=1), Call(x, n=2)]   # for explain(f, calls=calls)
    """

    args: tuple
    kwargs: dict

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        object.__setattr__(self, "args", args)
        object.__setattr__(self, "kwargs", kwargs)

    @classmethod
    def coerce(cls, value: Any) -> "Call":
        """A `Call`, or a tuple/list of positional arguments."""
        if isinstance(value, Call):
            return value
        if isinstance(value, (tuple, list)):
            return cls(*value)
        raise TypeError(
            f"each element of calls= must be a tuple of positional arguments or a levelbench.Call, "
            f"got {type(value).__name__}: wrap a single argument as (x,) or Call(x)"
        )


@dataclasses.dataclass(frozen=True)
class Leaf:
    """One leaf of a call's arguments.

    ``index``: position in the flattened call; ``name``: e.g. ``params['dense']['kernel']``;
    ``position``: the positional argument it belongs to (None for keyword arguments);
    ``whole``: the leaf is the whole argument, not a part of a pytree.
    """

    index: int
    name: str
    value: Any
    position: int | None = None
    whole: bool = False


def leaves(fn: Callable[..., Any], args: tuple, kwargs: dict) -> list[Leaf]:
    """The call's leaves in flattening order (``None`` leaves dropped), each named."""
    import jax

    flat, _ = jax.tree_util.tree_flatten_with_path((args, kwargs))
    params = _parameter_names(fn, len(args))
    out = []
    for i, (path, value) in enumerate(flat):
        top, key, *rest = path
        position = key.idx if getattr(top, "idx", 0) == 0 else None
        if position is not None:
            head = params[position] if position < len(params) else f"args[{position}]"
        else:
            head = str(key.key)
        out.append(Leaf(i, head + jax.tree_util.keystr(tuple(rest)), value, position, not rest))
    return out


def structure(args: tuple, kwargs: dict) -> Any:
    import jax

    return jax.tree_util.tree_structure((args, kwargs))


def rebuild(args: tuple, kwargs: dict, replace: dict[int, Any]) -> tuple[tuple, dict]:
    """The call with the leaves at the given flattened indices replaced."""
    import jax

    flat, tree = jax.tree_util.tree_flatten((args, kwargs))
    for i, v in replace.items():
        flat[i] = v
    new_args, new_kwargs = jax.tree_util.tree_unflatten(tree, flat)
    return tuple(new_args), dict(new_kwargs)


def _parameter_names(fn: Callable[..., Any], n: int) -> list[str]:
    try:
        sig = inspect.signature(fn)
    except (TypeError, ValueError):
        return []
    names = []
    for p in sig.parameters.values():
        if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            names.append(p.name)
        elif p.kind is p.VAR_POSITIONAL:
            names += [f"{p.name}[{i}]" for i in range(n - len(names))]
            break
    return names


def is_array(x: Any) -> bool:
    """An array JAX would trace (JAX arrays, NumPy arrays and scalars); Python scalars are not."""
    import jax

    return isinstance(x, (jax.Array, np.ndarray, np.generic))


def describe(x: Any) -> str:
    """``float32[8,200]`` for arrays (``numpy float64[3,3]`` for NumPy ones), a short repr otherwise."""
    if is_array(x):
        kind = "numpy " if isinstance(x, (np.ndarray, np.generic)) else ""
        shape = ",".join(str(d) for d in np.shape(x))
        return f"{kind}{np.dtype(x.dtype).name}[{shape}]"
    text = repr(x)
    return text if len(text) <= 60 else text[:57] + "..."


# The transformations whose result runs op by op unless jitted from the outside, by the first
# words of the docstring JAX gives the function they return.
_TRANSFORMS = (("Value and gradient of", "jax.value_and_grad"), ("Gradient of", "jax.grad"))


def jit_fix(fn: Any, label: str) -> tuple[str, str]:
    """The name the user's code gives ``fn`` and the expression that jits it from the outside.

    ``forward`` -> ``("forward", "jax.jit(forward)")``; a bound method -> ``mlp.apply``; a
    ``jax.grad(f)`` bound to ``grad_f`` -> ``("grad_f", "jax.jit(jax.grad(f))")``: jitting ``f``
    inside the gradient leaves the gradient itself op by op.
    """
    transform = transform_of(fn)
    inner = getattr(fn, "__wrapped__", None)
    if transform and inner is not None:
        inner_name = _expression(inner) or "f"
        return _bound_name(fn) or f"{transform.split('.')[-1]}_{inner_name}", f"jax.jit({transform}({inner_name}))"
    expression = _expression(fn) or (label if label.isidentifier() else "f")
    return expression.rsplit(".", 1)[-1], f"jax.jit({expression})"


def transform_of(fn: Any) -> str | None:
    doc = (getattr(fn, "__doc__", None) or "").lstrip()
    return next((name for words, name in _TRANSFORMS if doc.startswith(words)), None)


def _expression(fn: Any) -> str | None:
    """How the user's code names ``fn``: ``forward``, or ``mlp.apply`` for a bound method."""
    import types

    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or not name.isidentifier():
        return None
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        return f"{type(owner).__name__.lower()}.{name}"
    return name


def _bound_name(fn: Any) -> str | None:
    """The module-level name bound to ``fn`` in the module it comes from, if there is one."""
    import sys

    module = sys.modules.get(getattr(fn, "__module__", None) or "")
    for name, value in vars(module).items() if module else ():
        if value is fn and name.isidentifier() and not name.startswith("_"):
            return name
    return None
