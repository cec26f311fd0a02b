"""The timing engine: first call apart, calibrated samples, stop when the median is pinned down.

It knows no framework: waiting for results, compile events and FLOPs come from the adapters.
"""

from __future__ import annotations

import dataclasses
import gc
import math
import time
from collections.abc import Callable
from contextlib import contextmanager
from typing import Any, Iterator

from .._values.findings import Finding, Severity
from .._results.measurement import Measurement
from .._values.stats import median_ci
from .._frameworks import CompileTimes, adapter_named, framework_of, in_use
from .._frameworks import jax_adapter

Timer = Callable[[], float]


@dataclasses.dataclass(frozen=True)
class Options:
    """How hard to try. Defaults: 10 ms samples, stop at +-1% CI of the median or after 5 s.

    Attributes:
        budget: seconds of sampling (after the first call and calibration) before giving up
            on ``rel_ci``; at least ``min_samples`` samples are always taken.
        target_sample_time: a sample lasts at least this long (timer resolution and overhead
            then stay far below 0.1%).
        rel_ci: stop once the CI half-width of the median is within this fraction of it.
        min_samples / max_samples: bounds on the number of samples.
        confidence: of the median's interval.
        number: fix calls-per-sample instead of calibrating.
        floor: measure the framework's dispatch floor (an empty call) for the self-check.
    """

    budget: float = 5.0
    target_sample_time: float = 0.01
    rel_ci: float = 0.01
    min_samples: int = 5
    max_samples: int = 100_000
    confidence: float = 0.95
    number: int | None = None
    floor: bool = True

    def __post_init__(self) -> None:
        checks = [
            (self.budget >= 0, "budget", "seconds >= 0", self.budget),
            (self.target_sample_time > 0, "target_sample_time", "seconds > 0", self.target_sample_time),
            (0 < self.rel_ci < 1, "rel_ci", "a fraction in (0, 1), e.g. 0.01 for +-1%", self.rel_ci),
            (self.min_samples >= 1, "min_samples", "an integer >= 1", self.min_samples),
            (self.max_samples >= self.min_samples, "max_samples", ">= min_samples", self.max_samples),
            (0 < self.confidence < 1, "confidence", "a fraction in (0, 1), e.g. 0.95", self.confidence),
            (self.number is None or self.number >= 1, "number", "None (calibrate) or an integer >= 1", self.number),
        ]
        for ok, name, expected, got in checks:
            if not ok:
                raise ValueError(f"measure option {name} must be {expected}, got {got!r}")


@contextmanager
def gc_paused(collect: bool = False) -> Iterator[None]:
    """No garbage collection inside the block (``collect``: a full collection first)."""
    was_enabled = gc.isenabled()
    if collect:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def _gc_off() -> Any:
    return gc_paused(collect=True)


_floor_cache: dict[str, float | None] = {}


class Prepared:
    """A callable made ready for steady-state sampling: first call done, calls-per-sample chosen.

    `measure` samples one `Prepared` until its median is pinned down; `compare` samples several
    round-robin. ``sample()`` returns the per-call time of one sample, or None if a compilation
    happened during it (the sample is then discarded and counted).
    """

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, label: str, options: Options, timer: Timer):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.label, self.options, self.timer = label, options, timer
        self.started = timer()
        self.findings: list[Finding] = []
        self.samples: list[float] = []
        self.recompilations = 0
        self.discarded = 0
        self.sampling_time = 0.0

        adapter = adapter_named(framework_of(fn, args, kwargs))
        self.compile = adapter.compile_times(fn, args, kwargs)
        with jax_adapter.watch() as log:
            t0 = timer()
            result = fn(*args, **kwargs)
            waiters = [w for a in in_use() if (w := a.blocker(result)) is not None]
            for wait in waiters:
                wait(result)
            self.first_call = timer() - t0
        self.compile_in_first_call = log.seconds(jax_adapter.COMPILE_EVENT) + log.seconds(jax_adapter.TRACE_EVENT)
        self.result = result
        self.framework = framework_of(fn, args, kwargs, result)
        self.adapter = adapter_named(self.framework)
        self._waiters = waiters
        self.findings += _result_findings(fn, result)
        self.findings += self.adapter.call_findings(fn, args, kwargs, result)

        self.block_overhead: float | None = None
        self.unblocked_call: float | None = None
        self.number = options.number or 0
        self.sample_seconds = self.first_call  # replaced by calibration's last sample

    def calibrate(self) -> None:
        """Warm up: measure the wait overhead and choose calls-per-sample (after the first call)."""
        if self._waiters:
            self.block_overhead = self._block_overhead()
            self.unblocked_call = self._unblocked_call()
        else:
            self.block_overhead = 0.0
        if self.options.number:
            self.number = self.options.number
            self.sample_seconds = self._time_calls(self.number)
        else:
            self.number = self._calibrate()

    # -- one call, one sample ------------------------------------------------------------------
    def _call(self) -> Any:
        out = self.fn(*self.args, **self.kwargs)
        for wait in self._waiters:
            wait(out)
        return out

    def _time_calls(self, number: int) -> float:
        call, timer = self._call, self.timer
        t0 = timer()
        for _ in range(number):
            call()
        return timer() - t0

    def sample(self, keep: bool = True) -> float | None:
        """One sample's per-call time, kept in ``samples`` unless ``keep`` is False (a warm-up)."""
        with jax_adapter.watch() as log:
            elapsed = self._time_calls(self.number)
        self.sampling_time += elapsed
        if log.compilations:
            self.recompilations += log.compilations
            self.discarded += 1
            return None
        per_call = elapsed / self.number
        if keep:
            self.samples.append(per_call)
        return per_call

    # -- set-up --------------------------------------------------------------------------------
    def _calibrate(self) -> int:
        """Smallest calls-per-sample whose sample lasts at least the target (grows at most 10x a step)."""
        target = self.options.target_sample_time
        number = 1
        for _ in range(40):
            elapsed = self._time_calls(number)
            self.sample_seconds = elapsed
            if elapsed >= target:
                return number
            if elapsed <= 0:
                number *= 10
                continue
            number = min(number * 10, max(number + 1, math.ceil(number * target / elapsed * 1.1)))
        return number

    def _block_overhead(self) -> float:
        out = self._call()
        timer, waiters = self.timer, self._waiters
        reps = 200
        t0 = timer()
        for _ in range(reps):
            for wait in waiters:
                wait(out)
        return (timer() - t0) / reps

    def _unblocked_call(self) -> float:
        """Median time for a call to return without waiting: what naive timing of async JAX sees."""
        times = []
        for _ in range(5):
            t0 = self.timer()
            out = self.fn(*self.args, **self.kwargs)
            times.append(self.timer() - t0)
            for wait in self._waiters:
                wait(out)
        return sorted(times)[len(times) // 2]

    def dispatch_floor(self) -> float | None:
        if not self.options.floor or self.timer is not time.perf_counter:
            return None
        if self.framework not in _floor_cache:
            try:
                _floor_cache[self.framework] = self.adapter.dispatch_floor(self.timer)
            except Exception:  # a floor is a nicety; never fail a measurement for it
                _floor_cache[self.framework] = None
        return _floor_cache[self.framework]

    def ci_width_ok(self) -> bool:
        if len(self.samples) < self.options.min_samples:
            return False
        ci = median_ci(self.samples, self.options.confidence)
        return ci.relative_half_width <= self.options.rel_ci

    # -- result --------------------------------------------------------------------------------
    def measurement(self, *, target_reached: bool, flops: float | None = None, environment: dict | None = None) -> Measurement:
        if not self.samples:
            raise RuntimeError(
                f"{self.label}: every sample was discarded because JAX compiled during it "
                f"({self.recompilations} compilations): the function recompiles on every call; "
                "run `levelbench.explain(fn, *args)` to find the argument that changes"
            )
        floor = self.dispatch_floor()
        m = Measurement(
            label=self.label,
            framework=self.framework,
            samples=tuple(self.samples),
            calls_per_sample=self.number,
            first_call=self.first_call,
            compile=self.compile,
            compile_in_first_call=self.compile_in_first_call,
            block_overhead=self.block_overhead,
            dispatch_floor=floor,
            unblocked_call=self.unblocked_call,
            total_time=self.timer() - self.started,
            recompilations=self.recompilations,
            discarded_samples=self.discarded,
            target_reached=target_reached,
            rel_ci_target=self.options.rel_ci,
            confidence=self.options.confidence,
            flops=flops,
            output_dtype=_output_dtype(self.result),
            environment=environment or {},
        )
        return dataclasses.replace(m, findings=tuple(self.findings) + tuple(steady_findings(m)))


def measure(
    fn: Callable[..., Any],
    *args: Any,
    label: str | None = None,
    budget: float = 5.0,
    rel_ci: float = 0.01,
    target_sample_time: float = 0.01,
    min_samples: int = 5,
    max_samples: int = 100_000,
    number: int | None = None,
    flops: float | None = None,
    count_flops: bool = True,
    timer: Timer = time.perf_counter,
    environment: bool = True,
    save: bool | str = False,
    **kwargs: Any,
) -> Measurement:
    """Time ``fn(*args, **kwargs)`` correctly, whatever the framework.

    The first call is timed on its own (for a ``jax.jit`` function, after tracing, lowering and
    compiling it one by one through ``jax.stages``). Then calls-per-sample is calibrated so a
    sample lasts ``target_sample_time``, and samples are taken, with GC off and every call
    waiting for its whole output, until the 95% CI of the median is within ``rel_ci`` of it or
    ``budget`` seconds are spent (at least ``min_samples``). A sample during which JAX compiled
    is discarded and reported. FLOPs per call come from ``flops=`` or, with ``count_flops``, from
    XLA's cost analysis (jitted JAX) or PyTorch's FLOP counter. Keyword arguments not listed
    here go to ``fn`` (wrap ``fn`` in ``functools.partial`` if a name collides). ``save=True``
    records the measurement in the results database (``$LEVELBENCH_DB`` or
    ``.levelbench/results.db``); ``save="path.db"`` in that file.

    The median's CI comes from order statistics (distribution-free), not a bootstrap.

    Example:
        >>> import levelbench, numpy as np
        >>> x = np.ones((200, 200))
        >>> m = levelbench.measure(np.dot, x, x, budget=0.5)
        >>> m.median > 0
        True
    """
    options = Options(budget, target_sample_time, rel_ci, min_samples, max_samples, number=number)
    name = label or _label(fn)
    prepared = Prepared(fn, args, kwargs, name, options, timer)
    prepared.calibrate()
    with _gc_off():
        sampling_start = timer()
        reached = False
        while len(prepared.samples) < options.max_samples:
            prepared.sample()
            if prepared.ci_width_ok():
                reached = True
                break
            enough = len(prepared.samples) >= options.min_samples
            if enough and timer() - sampling_start >= options.budget:
                break
            if prepared.discarded > 10 * options.min_samples and not prepared.samples:
                break
    if flops is None and count_flops:
        flops = prepared.adapter.flops(fn, args, kwargs)
    env = _environment() if environment else {}
    m = prepared.measurement(target_reached=reached, flops=flops, environment=env)
    if save:
        from ..store import open_store

        open_store(save if isinstance(save, str) else None).save_measurement(m, label=name)
    return m


def _output_dtype(result: Any) -> str | None:
    from .._values.pytree import leaves
    from .._frameworks import adapter_for_array

    for leaf in leaves(result):
        adapter = adapter_for_array(leaf)
        if adapter is not None:
            dtype = adapter.describe(leaf).dtype
            if "float" in dtype or "complex" in dtype:
                return dtype
    return None


def _environment() -> dict[str, Any]:
    from .environment import collect

    return collect()


def _label(fn: Any) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or type(fn).__name__
    return str(name)


# -- self-checks ------------------------------------------------------------------------------
def _result_findings(fn: Any, result: Any) -> list[Finding]:
    from .._frameworks import adapter_for_array

    if callable(result) and adapter_for_array(result) is None:
        return [
            Finding(
                "LB001",
                "the call returned a function: nothing was computed",
                Severity.ERROR,
                evidence=f"{_label(fn)} returned {_short_repr(result)} instead of a result",
                cost="the time measured is that of creating a function object (nanoseconds), not your model",
                fix="time the call itself: measure(model, x)  # not measure(lambda: lambda: model(x))\n"
                "# in IPython: %timeit model(x)  (not %timeit lambda: model(x))",
            )
        ]
    return []


def _short_repr(x: Any) -> str:
    r = repr(x)
    return r if len(r) <= 80 else r[:77] + "..."


def steady_findings(m: Measurement) -> list[Finding]:
    """Checks that need the steady-state statistics: noise, dispatch floor, cold start, recompiles."""
    found = []
    median = m.median
    if median > 0 and m.iqr / median > 0.10:
        found.append(
            Finding(
                "LB003",
                f"noisy measurement: IQR is {m.iqr / median:.0%} of the median",
                Severity.WARNING,
                evidence=f"median {fmt_time(median)}, IQR {fmt_time(m.iqr)} over {m.n_samples} samples",
                cost="differences smaller than the noise cannot be trusted",
                fix="close other programs, pin threads (taskset), raise --budget, or compare "
                "interleaved with levelbench.compare so drift hits every candidate alike",
            )
        )
    if m.dispatch_floor and median < 2 * m.dispatch_floor:
        found.append(
            Finding(
                "LB004",
                f"per-call time is within {median / m.dispatch_floor:.1f}x of the {m.framework} dispatch floor",
                Severity.WARNING,
                evidence=f"median {fmt_time(median)}; an empty {m.framework} call takes {fmt_time(m.dispatch_floor)}",
                cost="the workload is too small to say anything about the framework: overhead dominates",
                fix="time a bigger problem (sweep sizes), or batch many small calls with jax.vmap",
            )
        )
    cold = m.cold_start
    if median > 0 and cold > 10 * median and cold - median > 1e-3:
        compiled = (m.compile.total if m.compile and not m.compile.cached else 0.0) + m.compile_in_first_call
        share = min(compiled / cold, 1.0) if cold else 0.0
        found.append(
            Finding(
                "LB005",
                f"the first call took {cold / median:,.0f}x the steady state; {share:.0%} of it was compilation",
                Severity.INFO,
                evidence=f"cold start {fmt_time(cold)} (compile {fmt_time(compiled)}), steady median {fmt_time(median)}",
                cost=f"a single unwarmed timing (e.g. %time f(x)) reports {fmt_time(cold)} instead of {fmt_time(median)}",
                fix="f(x).block_until_ready()  # warm up once, then time\n"
                "# or compile ahead of time: compiled = jax.jit(f).lower(x).compile()",
            )
        )
    if m.recompilations:
        found.append(
            Finding(
                "LB006",
                f"JAX compiled {m.recompilations} time(s) during steady-state sampling",
                Severity.WARNING,
                evidence=f"{m.discarded_samples} sample(s) discarded because a compilation happened in them",
                cost="every recompiling call pays trace + compile time again",
                fix="run levelbench.explain(fn, *args) to name the argument whose shape, dtype or static value changes",
            )
        )
    if not m.target_reached:
        found.append(
            Finding(
                "LB008",
                f"the median's CI did not reach +-{m.rel_ci_target:.0%} within the budget",
                Severity.INFO,
                evidence=f"{m.n_samples} samples; CI {fmt_time(m.ci.lower)} .. {fmt_time(m.ci.upper)} "
                f"(+-{m.ci.relative_half_width:.1%})",
                fix="raise the budget (budget=... / --budget) or reduce noise",
            )
        )
    return found


def fmt_time(seconds: float | None) -> str:
    """Human time with 3 significant digits: 1.23 ms, 456 us, 12.3 s."""
    if seconds is None or math.isnan(seconds):
        return "-"
    s = abs(seconds)
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6), ("ns", 1e-9)):
        if s >= scale or unit == "ns":
            v = seconds / scale
            return f"{v:.3g} {unit}" if abs(v) < 1000 else f"{v:,.0f} {unit}"
    return f"{seconds} s"
