"""One adapter per framework, behind the `Adapter` protocol; the timing engine knows no framework.

An adapter answers, for objects of its framework: is this one of mine, how to wait for it, what
are its shape/dtype/device, how to turn it into NumPy, how to split compilation from running, and
how many FLOPs a call does. Adapters never import their framework unless the user's objects show
it is in use (checked through ``sys.modules``), so ``import levelbench`` stays light.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from typing import Any, Protocol

from .._values.findings import Finding


@dataclasses.dataclass(frozen=True)
class ArrayInfo:
    """What must match between two candidates' inputs."""

    framework: str
    shape: tuple[int, ...]
    dtype: str
    device: str

    @property
    def size(self) -> int:
        n = 1
        for d in self.shape:
            n *= d
        return n


@dataclasses.dataclass(frozen=True)
class CompileTimes:
    """Cold-start cost of a jitted function, in seconds.

    ``source`` says how it was measured: ``"aot"`` (jax.stages: trace, lower, compile timed
    one by one before the first call) or ``"events"`` (durations JAX reported while running).
    ``cached`` is true when the program was already compiled before levelbench saw it.
    """

    trace: float
    lower: float
    compile: float
    source: str
    cached: bool = False

    @property
    def total(self) -> float:
        return self.trace + self.lower + self.compile

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "CompileTimes":
        return cls(**d)


class Adapter(Protocol):
    name: str

    def in_use(self) -> bool:
        """The framework is imported (so objects of it can exist)."""

    def is_array(self, x: Any) -> bool: ...

    def describe(self, x: Any) -> ArrayInfo: ...

    def to_numpy(self, x: Any) -> Any: ...

    def blocker(self, result: Any) -> Callable[[Any], None] | None:
        """A function that waits for ``result``-shaped outputs, or None if nothing to wait for."""

    def owns_callable(self, fn: Any) -> bool: ...

    def compile_times(self, fn: Any, args: tuple, kwargs: dict) -> CompileTimes | None: ...

    def dispatch_floor(self, timer: Callable[[], float]) -> float | None:
        """Per-call time of the framework's cheapest round trip (an empty call), in seconds."""

    def flops(self, fn: Any, args: tuple, kwargs: dict) -> float | None: ...

    def call_findings(self, fn: Any, args: tuple, kwargs: dict, result: Any) -> list[Finding]: ...


def all_adapters() -> list[Adapter]:
    from . import jax_adapter as _jax, numpy_adapter as _numpy, torch_adapter as _torch

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
    from .._values.pytree import leaves

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
    from . import numpy_adapter as _numpy

    return _numpy.ADAPTER.is_array(x)


def adapter_named(name: str) -> Adapter:
    for a in all_adapters():
        if a.name == name:
            return a
    from . import numpy_adapter as _numpy

    return _numpy.ADAPTER
