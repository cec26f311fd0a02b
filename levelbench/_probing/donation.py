"""Donated buffers: a jitted update that copies a large input it overwrites, and the fix measured.

``x.at[i].set(v)`` under ``jax.jit`` cannot write into ``x``: the caller still holds it, so XLA
copies the whole of ``x`` and updates the copy, on every call. Passing ``donate_argnums`` tells
XLA the caller gives ``x`` up, and the output can reuse its buffer: the copy goes away. The
pattern is read from the traced program: an input of at least `MIN_BYTES` that feeds a scatter or
``dynamic_update_slice`` and an output of the same shape and dtype (what an update step returns).

Timing a donated function needs a new input on every call (the donated one is deleted), so both
the function as given and the donated one are timed the way an update is used: each call's output
is the next call's input (`Threaded`). Both start from a copy of the caller's array, so the
user's array is never donated, and the first call's output stays readable for the agreement check.
"""

from __future__ import annotations

import dataclasses
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np

from .arguments import is_array
from .jaxpr import open_jaxpr
from .subject import fresh_jit, over_arrays

# Below this an input is cheap to copy: donating it saves little next to dispatch.
MIN_BYTES = 1 << 20
# Primitives that write part of an array: without donation their operand is copied first.
UPDATES = frozenset({"scatter", "scatter-add", "scatter_add", "scatter-mul", "scatter_mul", "scatter-min",
                     "scatter_min", "scatter-max", "scatter_max", "scatter_sub", "dynamic_update_slice"})


@dataclasses.dataclass(frozen=True)
class Overwrite:
    """Input ``index`` (among the call's arrays, in `fresh_jit`'s order) is updated by ``primitive``
    and comes back as output leaf ``output`` with the same shape and dtype."""

    index: int
    output: int
    primitive: str
    shape: tuple[int, ...]
    dtype: str
    nbytes: int

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


def overwritten_inputs(closed: Any, min_bytes: int = MIN_BYTES) -> list[Overwrite]:
    """The program's large inputs that an update primitive copies and an output returns."""
    jaxpr = open_jaxpr(closed)
    position = {id(v): i for i, v in enumerate(jaxpr.invars)}
    updated: dict[int, str] = {}
    for e in jaxpr.eqns:
        name = e.primitive.name
        if name in UPDATES and e.invars and id(e.invars[0]) in position:
            updated.setdefault(position[id(e.invars[0])], name)
        elif name in ("pjit", "jit", "closed_call"):  # jnp wraps some updates in a jit of their own
            inner = open_jaxpr(e.params.get("jaxpr"))
            for k, v in enumerate(e.invars):
                if id(v) in position and k < len(getattr(inner, "invars", ())):
                    if any(q.primitive.name in UPDATES and q.invars and q.invars[0] is inner.invars[k]
                           for q in inner.eqns):
                        updated.setdefault(position[id(v)], name)
    found, taken = [], set()
    for index, primitive in sorted(updated.items()):
        aval = jaxpr.invars[index].aval
        nbytes = int(np.prod(aval.shape, dtype=np.int64)) * np.dtype(aval.dtype).itemsize
        if nbytes < min_bytes:
            continue
        for k, out in enumerate(jaxpr.outvars):
            a = getattr(out, "aval", None)
            if k not in taken and a is not None and a.shape == aval.shape and a.dtype == aval.dtype:
                taken.add(k)
                found.append(Overwrite(index, k, primitive, tuple(aval.shape), np.dtype(aval.dtype).name, nbytes))
                break
    return found


def donates_already(traced: Any) -> bool:
    """Whether the user's jitted function donates any argument already (then nothing is suggested)."""
    import jax

    try:
        return any(getattr(a, "donated", False) for a in jax.tree_util.tree_leaves(traced.args_info))
    except Exception:  # an old jax without args_info: assume not
        return False


def argument_of(args: tuple, kwargs: dict, index: int) -> tuple[int | None, str | None, str]:
    """Where the ``index``-th array of the call sits: (positional index, keyword name, display)."""
    import jax

    leaves, _ = jax.tree_util.tree_flatten_with_path((args, kwargs))
    arrays = [path for path, x in leaves if is_array(x)]
    path = arrays[index]
    top, key = path[0], path[1] if len(path) > 1 else None
    which = getattr(top, "idx", 0)
    if which == 0 and key is not None:
        n = getattr(key, "idx", None)
        return n, None, f"argument {n}" + (" (a leaf of it)" if len(path) > 2 else "")
    name = getattr(key, "key", None)
    return None, str(name), f"argument {name!r}" + (" (a leaf of it)" if len(path) > 2 else "")


class Threaded:
    """An update called the way it is used: each call's output leaf ``output`` is the next call's
    input ``index``. Starts from a copy of the caller's array (never donating the caller's), and
    keeps the first output readable (the agreement check reads it after later calls donate)."""

    def __init__(self, fn: Callable[..., Any], arrays: list[Any], index: int, output: int, name: str):
        self.fn, self.arrays, self.index, self.output = fn, list(arrays), index, output
        self.__name__ = self.__qualname__ = name
        self.calls = 0
        self.donation_warnings: list[str] = []

    def __call__(self) -> Any:
        import jax
        import jax.numpy as jnp

        if self.calls == 0:
            self.arrays[self.index] = jnp.array(self.arrays[self.index], copy=True)
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                out = self.fn(*self.arrays)
                jax.block_until_ready(out)
            self.donation_warnings = [str(w.message).splitlines()[0] for w in caught
                                      if "donat" in str(w.message).lower()]
            self.arrays[self.index] = jnp.array(jax.tree_util.tree_leaves(out)[self.output], copy=True)
        else:
            out = self.fn(*self.arrays)
            self.arrays[self.index] = jax.tree_util.tree_leaves(out)[self.output]
        self.calls += 1
        return out


def threaded_pair(fn: Callable[..., Any], args: tuple, kwargs: dict, overwrite: Overwrite,
                  label: str) -> tuple[Threaded, Threaded, tuple]:
    """``fn`` as given and a new ``jax.jit(..., donate_argnums=...)`` of it, both `Threaded`, and the
    checked inputs. The user's function object, its caches and its arrays are left as they are."""
    import jax

    jitted, arrays = fresh_jit(fn, args, kwargs)
    donated = jax.jit(jitted.__wrapped__, donate_argnums=(overwrite.index,))
    as_given, _ = over_arrays(fn, args, kwargs)
    original = Threaded(as_given, arrays, overwrite.index, overwrite.output, f"{label}_threaded")
    fixed = Threaded(donated, arrays, overwrite.index, overwrite.output, f"{label}_donated")
    return original, fixed, (arrays[overwrite.index],)
