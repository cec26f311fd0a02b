"""NumPy (and plain Python): nothing to wait for, nothing to compile."""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

import numpy as np

from .._values.findings import Finding
from .._results.measurement import CompileTimes
from .base import ArrayInfo, CompileLog


class NumpyAdapter:
    name = "numpy"

    def in_use(self) -> bool:
        return True

    def is_array(self, x: Any) -> bool:
        return isinstance(x, (np.ndarray, np.generic))

    def describe(self, x: Any) -> ArrayInfo:
        a = np.asarray(x)
        return ArrayInfo("numpy", tuple(a.shape), str(a.dtype), "cpu")

    def to_numpy(self, x: Any) -> Any:
        return np.asarray(x)

    def blocker(self, result: Any) -> Callable[[Any], None] | None:
        return None

    def owns_callable(self, fn: Any) -> bool:
        return getattr(fn, "__module__", None) in ("numpy", "numpy.linalg") or isinstance(fn, np.ufunc)

    def reporting_compiles(self, log: CompileLog) -> Any:
        return contextlib.nullcontext()  # runs eagerly: compiles nothing

    def compile_times(self, fn: Any, args: tuple, kwargs: dict) -> CompileTimes | None:
        return None

    def dispatch_floor(self, timer: Callable[[], float]) -> float | None:
        x = np.zeros(1)
        return _per_call(lambda: np.add(x, 0.0), timer)

    def flops(self, fn: Any, args: tuple, kwargs: dict) -> float | None:
        return None

    def call_findings(self, fn: Any, args: tuple, kwargs: dict, result: Any) -> list[Finding]:
        return []


def _per_call(call: Callable[[], Any], timer: Callable[[], float], number: int = 2000, repeat: int = 7) -> float:
    """Median-of-``repeat`` per-call time of a tiny call, for dispatch floors.

    The median, like the steady-state statistic it is compared with, so that a candidate doing
    no more than the empty call reads as ~1x the floor rather than 'above' a best case.
    """
    times = []
    for _ in range(repeat):
        t0 = timer()
        for _ in range(number):
            call()
        times.append((timer() - t0) / number)
    return sorted(times)[len(times) // 2]


ADAPTER = NumpyAdapter()
