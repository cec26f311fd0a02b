"""What every framework adapter answers, and the compile events some frameworks report.

An adapter answers, for objects of its framework: is this one of mine, how to wait for it, what
are its shape/dtype/device, how to turn it into NumPy, how to split compilation from running, what
it compiled while a block ran, and how many FLOPs a call does.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from contextlib import AbstractContextManager
from typing import Any, Protocol

from .._results.measurement import CompileTimes
from .._values.findings import Finding

TRACE = "trace"
LOWER = "lower"
COMPILE = "compile"


@dataclasses.dataclass(frozen=True)
class CompileEvent:
    """One stage of one compilation a framework reported: ``stage`` is `TRACE`, `LOWER` or `COMPILE`."""

    stage: str
    seconds: float
    function: str = "?"


class CompileLog:
    """The compile events reported while a `levelbench._frameworks.compile_events()` block was open."""

    def __init__(self) -> None:
        self.events: list[CompileEvent] = []

    def count(self, stage: str = COMPILE) -> int:
        return sum(1 for e in self.events if e.stage == stage)

    def seconds_in(self, stage: str) -> float:
        return sum(e.seconds for e in self.events if e.stage == stage)

    @property
    def compilations(self) -> int:
        return self.count(COMPILE)

    @property
    def traces(self) -> int:
        return self.count(TRACE)

    @property
    def total_seconds(self) -> float:
        """Trace + lower + compile seconds reported."""
        return sum(e.seconds for e in self.events)

    def compiled_functions(self) -> list[str]:
        return [e.function for e in self.events if e.stage == COMPILE]


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

    def reporting_compiles(self, log: CompileLog) -> AbstractContextManager[None]:
        """While the block runs, add what this framework compiles to ``log`` (nothing for eager ones)."""

    def dispatch_floor(self, timer: Callable[[], float]) -> float | None:
        """Per-call time of the framework's cheapest round trip (an empty call), in seconds."""

    def flops(self, fn: Any, args: tuple, kwargs: dict) -> float | None: ...

    def call_findings(self, fn: Any, args: tuple, kwargs: dict, result: Any) -> list[Finding]: ...
