"""A light stopwatch for probes: first call apart, then a few calibrated samples within a small budget.

`levelbench.measure` pins a median down to +-1% and checks itself (unblocked call, wait overhead,
dispatch floor), which costs many calls: too many for a 0.5 s function inside a diagnosis that
should take seconds. Probes need the size of a number, not its third digit.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable
from typing import Any

from .._results.measurement import Measurement
from .._frameworks import in_use

SAMPLE_SECONDS = 0.002
MIN_SAMPLES = 3
MAX_SAMPLES = 15

_floor: dict[str, float | None] = {}


@dataclasses.dataclass(frozen=True)
class Timing:
    """Seconds per call: ``median`` of the steady samples, the ``first_call`` on its own, and the
    framework's ``dispatch_floor`` (an empty jitted call) when known."""

    median: float
    first_call: float
    samples: int
    calls_per_sample: int
    dispatch_floor: float | None = None

    @classmethod
    def of(cls, m: Measurement) -> "Timing":
        return cls(m.median, m.first_call, m.n_samples, m.calls_per_sample, m.dispatch_floor)


def time_calls(fn: Callable[..., Any], args: tuple, kwargs: dict, budget: float, floor: str | None = None,
               timer: Callable[[], float] = time.perf_counter) -> Timing:
    """Time ``fn(*args, **kwargs)``, waiting for its whole output every call.

    At least `MIN_SAMPLES` samples (fewer for a call so slow that they would take over twice the
    budget), more while ``budget`` seconds last (at most `MAX_SAMPLES`); each sample repeats the
    call until it lasts `SAMPLE_SECONDS`. ``floor="jax"`` adds JAX's
    dispatch floor (measured once per process).
    """
    t0 = timer()
    result = fn(*args, **kwargs)
    waiters = [w for a in in_use() if (w := a.blocker(result)) is not None]
    for wait in waiters:
        wait(result)
    first = timer() - t0

    def sample(number: int) -> float:
        start = timer()
        for _ in range(number):
            out = fn(*args, **kwargs)
            for wait in waiters:
                wait(out)
        return timer() - start

    give_up = timer() + 2 * budget
    number, elapsed = 1, sample(1)
    while elapsed < SAMPLE_SECONDS and number < 1_000_000:
        number *= 10 if elapsed <= 0 else max(2, min(10, int(SAMPLE_SECONDS / elapsed) + 1))
        elapsed = sample(number)
    samples = [elapsed / number]
    deadline = timer() + budget
    while len(samples) < MAX_SAMPLES:
        now = timer()
        if (len(samples) >= MIN_SAMPLES and now >= deadline) or now + elapsed > give_up:
            break
        samples.append(sample(number) / number)
    samples.sort()
    return Timing(samples[len(samples) // 2], first, len(samples), number, dispatch_floor(floor, timer))


def dispatch_floor(framework: str | None, timer: Callable[[], float] = time.perf_counter) -> float | None:
    if framework is None or timer is not time.perf_counter:
        return None
    if framework not in _floor:
        from .._frameworks import adapter_named

        try:
            _floor[framework] = adapter_named(framework).dispatch_floor(timer)
        except Exception:  # a floor is a nicety: never fail a probe for it
            _floor[framework] = None
    return _floor[framework]
