"""One adapter per framework, behind the `Adapter` protocol (`base`); the timing engine knows no framework.

Adapters never import their framework unless the user's objects show it is in use (checked
through ``sys.modules``), so ``import levelbench`` stays light. A new framework is one new module
here, listed in `all_adapters`.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import ExitStack, contextmanager
from typing import Any

from .base import COMPILE, LOWER, TRACE, Adapter, ArrayInfo, CompileEvent, CompileLog
from . import jax_adapter as _jax, numpy_adapter as _numpy, torch_adapter as _torch
from .._values.pytree import leaves

__all__ = ["COMPILE", "LOWER", "TRACE", "Adapter", "ArrayInfo", "CompileEvent", "CompileLog", "adapter_for_array",
           "adapter_named", "all_adapters", "compile_events", "framework_of", "in_use"]


def all_adapters() -> list[Adapter]:
    return [_jax.ADAPTER, _torch.ADAPTER, _numpy.ADAPTER]


def in_use() -> Iterator[Adapter]:
    return (a for a in all_adapters() if a.in_use())


def adapter_for_array(x: Any) -> Adapter | None:
    for a in in_use():
        if a.is_array(x):
            return a
    return None


def framework_of(fn: Any, args: tuple, kwargs: dict, result: Any = None) -> str:
    """Name of the framework a call belongs to: its callable first, then its inputs, then its output."""

    adapters = list(in_use())
    for a in adapters:
        if a.owns_callable(fn):
            return a.name
    for tree in ((args, kwargs), result):
        for leaf in leaves(tree):
            for a in adapters:
                if a.name != "numpy" and a.is_array(leaf):
                    return a.name
    return "numpy" if any(_numpy_leaf(x) for x in leaves((args, kwargs, result))) else "python"


def _numpy_leaf(x: Any) -> bool:
    return _numpy.ADAPTER.is_array(x)


def adapter_named(name: str) -> Adapter:
    for a in all_adapters():
        if a.name == name:
            return a

    return _numpy.ADAPTER


@contextmanager
def compile_events() -> Iterator[CompileLog]:
    """Everything the frameworks in use compile while the block runs (JAX reports; NumPy and
    PyTorch's eager mode compile nothing)."""
    log = CompileLog()
    with ExitStack() as stack:
        for adapter in in_use():
            stack.enter_context(adapter.reporting_compiles(log))
        yield log
