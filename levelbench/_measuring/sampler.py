"""The sampler: the one timing loop behind `measure`, `compare`, `explain`'s probes and ``%lbtime``.

First call apart (waited for, with what the frameworks compiled during it), then calibrated
samples, each call waiting for its whole output. It knows no framework: waiting for results,
compile events, dispatch floors and FLOPs come from the adapters.

- `Prepared`: a callable after its first call, sampled one sample at a time (`measure`, `compare`);
- `cold_call`: one call on its own (``%lbtime``);
- `quick_timing`: a few samples in a small budget, for probes that need the size of a number.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from typing import Any

from .._frameworks import COMPILE, LOWER, TRACE, CompileLog, adapter_named, compile_events, framework_of, in_use
from .._results.cold_call import ColdCall
from .._results.measurement import Measurement
from .._values.arguments import number
from .._values.findings import Finding, Severity
from .._values.settings import MEASURING, PROBING
from .._values.stats import Interval, median_ci
from .._values.units import fmt_time
from .checks import label_of, lazy_kind, result_findings, steady_findings
from .._frameworks import adapter_for_array
from .._values.pytree import leaves

Timer = Callable[[], float]


@dataclasses.dataclass(frozen=True)
class Options:
    """How hard to try (the fields of `levelbench._values.settings.Measuring`, defaults there).

    Attributes:
        number: fix calls-per-sample instead of calibrating.
        floor: measure the framework's dispatch floor (an empty call) for the self-check.
    """

    budget: float = MEASURING.budget
    target_sample_time: float = MEASURING.target_sample_time
    rel_ci: float = MEASURING.rel_ci
    min_samples: int = MEASURING.min_samples
    max_samples: int = MEASURING.max_samples
    confidence: float = MEASURING.confidence
    number: int | None = None
    floor: bool = True

    def __post_init__(self) -> None:
        check_options(self, "measure")


def check_options(o: Options, where: str) -> None:
    """Each option's type and range, before anything runs."""
    number(where, "budget", o.budget, "a number of seconds >= 0", low=0, finite=False)
    number(where, "target_sample_time", o.target_sample_time, "a number of seconds > 0", low=0, low_open=True)
    number(where, "rel_ci", o.rel_ci, "a fraction in (0, 1), e.g. 0.01 for +-1%", low=0, low_open=True, high=1,
           high_open=True)
    number(where, "min_samples", o.min_samples, "an integer >= 1", low=1, integer=True)
    number(where, "max_samples", o.max_samples, f"an integer >= min_samples ({o.min_samples})",
           low=o.min_samples, integer=True)
    number(where, "confidence", o.confidence, "a fraction in (0, 1), e.g. 0.95", low=0, low_open=True, high=1,
           high_open=True)
    most = MEASURING.max_number
    number(where, "number", o.number, f"None (calibrate) or an integer from 1 to {most:,} (one sample of more calls "
           "would outlast any budget, even at 1 ns per call)", low=1, high=most, integer=True, optional=True)


# -- the first call ------------------------------------------------------------------------------
@dataclasses.dataclass
class Started:
    """A first call, waited for: its result, wall and CPU seconds, and what was compiled meanwhile."""

    result: Any
    seconds: float
    cpu_seconds: float
    compiled: CompileLog
    waiters: list[Callable[[Any], None]]


def start(fn: Callable[..., Any], args: tuple, kwargs: dict, timer: Timer = time.perf_counter) -> Started:
    """Call ``fn`` once and wait for its whole output (JAX arrays, CUDA tensors)."""
    with compile_events() as log:
        c0, t0 = time.process_time(), timer()
        result = fn(*args, **kwargs)
        waiters = [w for a in in_use() if (w := a.blocker(result)) is not None]
        for wait in waiters:
            wait(result)
        seconds, cpu = timer() - t0, time.process_time() - c0
    return Started(result, seconds, cpu, log, waiters)


_floors: dict[str, float | None] = {}


def dispatch_floor(framework: str, timer: Timer = time.perf_counter) -> float | None:
    """The framework's cheapest call (an empty jitted op), measured once per process."""
    if timer is not time.perf_counter:
        return None
    if framework not in _floors:
        try:
            _floors[framework] = adapter_named(framework).dispatch_floor(timer)
        except Exception:  # a floor is a nicety: never fail a measurement for it
            _floors[framework] = None
    return _floors[framework]


def _closing_coroutines(fn: Callable[..., Any]) -> Callable[..., Any]:
    """``fn`` (an ``async def`` function) called and its coroutine closed at once: nothing runs either way."""
    def call(*args: Any, **kwargs: Any) -> None:
        coroutine = fn(*args, **kwargs)
        if hasattr(coroutine, "close"):
            coroutine.close()

    return call


# -- steady state --------------------------------------------------------------------------------
class Prepared:
    """A callable made ready for steady-state sampling: first call done, calls-per-sample chosen.

    `measure` samples one `Prepared` until its median is pinned down; `compare` samples several
    in blocks, round-robin. ``sample()`` returns the per-call time of one sample, or None if a
    compilation happened during it (the sample is then discarded and counted).
    """

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, label: str, options: Options,
                 timer: Timer = time.perf_counter):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.label, self.options, self.timer = label, options, timer
        self.started = timer()
        self.samples: list[float] = []
        self.recompilations = 0
        self.discarded = 0
        self.sampling_time = 0.0

        self.compile = adapter_named(framework_of(fn, args, kwargs)).compile_times(fn, args, kwargs)
        first = start(fn, args, kwargs, timer)
        coroutine = lazy_kind(first.result) == "coroutine"
        if coroutine:  # every call creates one and runs nothing (LB001): each is closed, so none warns
            first.result.close()
            self.fn = _closing_coroutines(fn)
        self.first_call = first.seconds
        self.compile_in_first_call = first.compiled.seconds_in(COMPILE) + first.compiled.seconds_in(TRACE)
        self.result = first.result
        self.framework = framework_of(fn, args, kwargs, first.result)
        self.adapter = adapter_named(self.framework)
        self._waiters = first.waiters
        self.findings: list[Finding] = result_findings(fn, first.result)
        self.findings += self.adapter.call_findings(fn, args, kwargs, first.result)

        self.block_overhead: float | None = None
        self.unblocked_call: float | None = None
        self.number = options.number or 0
        self.sample_seconds = self.first_call  # replaced by calibration's last sample

    def calibrate(self, light: bool = False) -> None:
        """Warm up and choose calls-per-sample; unless ``light``, also measure what waiting costs
        and how long a call takes to return without waiting (the unblocked call).

        A call so slow that ``min_samples`` of them overrun the budget is not called again to set
        up: one call per sample, and the first call's result stands in for the waiting checks.
        """
        if self._waiters and not light:
            self.block_overhead = self._block_overhead()
            self.unblocked_call = self._unblocked_call(1 if self.slow else 5)
        elif not self._waiters:
            self.block_overhead = 0.0
        if self.slow and not self.options.number:
            self.number, self.sample_seconds = 1, self.first_call
        elif self.options.number:
            self.number = self.options.number
            self.sample_seconds = self.time_calls(self.number)
        else:
            self.number = self._calibrate()

    # -- one call, one sample ------------------------------------------------------------------
    def _call(self) -> Any:
        out = self.fn(*self.args, **self.kwargs)
        for wait in self._waiters:
            wait(out)
        return out

    def time_calls(self, number: int) -> float:
        """Seconds for ``number`` calls in a row, each waited for."""
        call, timer = self._call, self.timer
        t0 = timer()
        for _ in range(number):
            call()
        return timer() - t0

    def sample(self, keep: bool = True) -> float | None:
        """One sample's per-call time, kept in ``samples`` unless ``keep`` is False (a warm-up)."""
        with compile_events() as log:
            elapsed = self.time_calls(self.number)
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
            elapsed = self.time_calls(number)
            self.sample_seconds = elapsed
            if elapsed >= target:
                return number
            if elapsed <= 0:
                number *= 10
                continue
            number = min(number * 10, max(number + 1, math.ceil(number * target / elapsed * 1.1)))
        return number

    @property
    def slow(self) -> bool:
        """One call takes so long that the minimum number of samples alone exceeds the budget."""
        return self.first_call * self.options.min_samples > self.options.budget

    def _block_overhead(self) -> float:
        out = self.result if self.slow else self._call()
        timer, waiters = self.timer, self._waiters
        reps = 200
        t0 = timer()
        for _ in range(reps):
            for wait in waiters:
                wait(out)
        return (timer() - t0) / reps

    def _unblocked_call(self, calls: int = 5) -> float:
        """Median time for a call to return without waiting: what naive timing of async JAX sees."""
        times = []
        for _ in range(calls):
            t0 = self.timer()
            out = self.fn(*self.args, **self.kwargs)
            times.append(self.timer() - t0)
            for wait in self._waiters:
                wait(out)
        return sorted(times)[len(times) // 2]

    def dispatch_floor(self) -> float | None:
        return dispatch_floor(self.framework, self.timer) if self.options.floor else None

    def ci_width_ok(self) -> bool:
        if len(self.samples) < self.options.min_samples:
            return False
        ci = median_ci(self.samples, self.options.confidence)
        return ci.relative_half_width <= self.options.rel_ci

    # -- result --------------------------------------------------------------------------------
    def measurement(self, *, target_reached: bool, flops: float | None = None,
                    environment: dict | None = None) -> Measurement:
        if not self.samples:
            raise RuntimeError(
                f"{self.label}: every sample was discarded because JAX compiled during it "
                f"({self.recompilations} compilations): the function recompiles on every call; "
                "run `levelbench.explain(fn, *args)` to find the argument that changes"
            )
        m = Measurement(
            label=self.label,
            framework=self.framework,
            samples=tuple(self.samples),
            calls_per_sample=self.number,
            first_call=self.first_call,
            compile=self.compile,
            compile_in_first_call=self.compile_in_first_call,
            block_overhead=self.block_overhead,
            dispatch_floor=self.dispatch_floor(),
            unblocked_call=self.unblocked_call,
            total_time=self.timer() - self.started,
            recompilations=self.recompilations,
            discarded_samples=self.discarded,
            target_reached=target_reached,
            rel_ci_target=self.options.rel_ci,
            confidence=self.options.confidence,
            flops=flops,
            output_dtype=output_dtype(self.result),
            environment=environment or {},
        )
        found = list(self.findings) + steady_findings(m)
        if self.slow and self.sampling_time > self.options.budget:
            found = [f for f in found if f.code != "LB008"] + [self._over_budget(m)]
        return dataclasses.replace(m, findings=tuple(found))

    def _over_budget(self, m: Measurement) -> Finding:
        per_call = self.first_call if not self.samples else m.median
        return Finding(
            "LB008", f"one call takes {fmt_time(per_call)}: the budget of {fmt_time(self.options.budget)} "
            f"allows fewer than the minimum {self.options.min_samples} samples",
            Severity.INFO,
            evidence=f"{m.n_samples} samples of 1 call each, {fmt_time(self.sampling_time)} of sampling; "
            f"CI {fmt_time(m.ci.lower)} .. {fmt_time(m.ci.upper)} (+-{m.ci.relative_half_width:.1%})",
            cost="the minimum number of samples, so a wider confidence interval than asked for",
            fix=f"give a budget of at least {fmt_time(per_call * 20)} for a tight interval, or time a smaller "
            "problem",
            data={"per_call": per_call, "budget": self.options.budget},
        )


def output_dtype(result: Any) -> str | None:
    """The dtype of the first floating-point output (what precision the work ran in)."""

    for leaf in leaves(result):
        adapter = adapter_for_array(leaf)
        if adapter is not None:
            dtype = adapter.describe(leaf).dtype
            if "float" in dtype or "complex" in dtype:
                return dtype
    return None


# -- one cold call -------------------------------------------------------------------------------
def cold_call(fn: Callable[..., Any], args: tuple, kwargs: dict, label: str | None = None) -> ColdCall:
    """One call on its own, waited for, with the share JAX spent tracing and compiling (``%lbtime``)."""
    first = start(fn, args, kwargs)
    framework = framework_of(fn, args, kwargs, first.result)
    findings = result_findings(fn, first.result)
    if lazy_kind(first.result) == "coroutine":
        first.result.close()  # never awaited: closed, so Python does not warn about it
    findings += adapter_named(framework).call_findings(fn, args, kwargs, first.result)
    log = first.compiled
    return ColdCall(
        label=label or label_of(fn),
        framework=framework,
        wall=first.seconds,
        cpu=first.cpu_seconds,
        traces=log.traces,
        compilations=log.compilations,
        trace_time=log.seconds_in(TRACE),
        lower_time=log.seconds_in(LOWER),
        compile_time=log.seconds_in(COMPILE),
        findings=tuple(findings),
    )


# -- a few samples, quickly ----------------------------------------------------------------------
@dataclasses.dataclass(frozen=True)
class QuickTiming:
    """Seconds per call: ``median`` of the steady samples, the ``first_call`` on its own, and the
    framework's ``dispatch_floor`` (an empty jitted call) when asked for."""

    median: float
    first_call: float
    samples: int
    calls_per_sample: int
    dispatch_floor: float | None = None
    per_call: tuple[float, ...] = ()  # the samples' per-call times, for the median's CI and ratios

    @classmethod
    def of(cls, m: Measurement) -> "QuickTiming":
        return cls(m.median, m.first_call, m.n_samples, m.calls_per_sample, m.dispatch_floor, tuple(m.samples))

    @property
    def ci(self) -> Interval:
        """The median with its distribution-free 95% CI (`median_ci`); a point where no samples were kept."""
        if not self.per_call:
            return Interval(self.median, self.median, self.median)
        i = median_ci(self.per_call)
        return Interval(self.median, min(i.lower, self.median), max(i.upper, self.median), i.confidence)


def quick_timing(fn: Callable[..., Any], args: tuple, kwargs: dict, budget: float, floor: str | None = None,
                 timer: Timer = time.perf_counter) -> QuickTiming:
    """Time ``fn(*args, **kwargs)`` within about ``budget`` seconds: for probes, which need the size
    of a number, not its third digit (`measure` pins a median to +-1%, which costs many calls).

    At least ``PROBING.min_samples`` samples (fewer for a call so slow that they would take over
    twice the budget), more while ``budget`` seconds last (at most ``PROBING.max_samples``); each
    sample repeats the call until it lasts ``PROBING.sample_seconds``; compilations are not
    discarded. ``floor="jax"`` adds JAX's dispatch floor.
    """
    options = Options(target_sample_time=PROBING.sample_seconds, floor=False)
    p = Prepared(fn, args, kwargs, label_of(fn), options, timer)
    give_up = timer() + 2 * budget
    p.calibrate(light=True)
    samples = [p.sample_seconds / p.number]
    deadline = timer() + budget
    while len(samples) < PROBING.max_samples:
        now = timer()
        if (len(samples) >= PROBING.min_samples and now >= deadline) or now + p.sample_seconds > give_up:
            break
        samples.append(p.time_calls(p.number) / p.number)
    samples.sort()
    return QuickTiming(samples[len(samples) // 2], p.first_call, len(samples), p.number,
                       dispatch_floor(floor, timer) if floor else None, tuple(samples))


def paired_timings(calls: Sequence[tuple[Callable[..., Any], tuple, dict]], rounds: int = PROBING.paired_rounds,
                   timer: Timer = time.perf_counter) -> tuple[list[tuple[float, ...]], float]:
    """Per-call times of each call, one sample of each per round in turn (A B A B ...), and the share of
    the rounds' wall time this process ran on a CPU (process CPU time / wall time): for a probe that
    decides on two calls' ratio, since drift over the rounds then hits both alike and pairing by round
    cancels it (`paired_ratio_ci`); what pairing cannot cancel is a process that lost its core for part
    of a sample, which a low share shows. Each call is made ready first (its first call, calls per sample)."""
    options = Options(target_sample_time=PROBING.sample_seconds, floor=False)
    ready = [Prepared(fn, args, kwargs, label_of(fn), options, timer) for fn, args, kwargs in calls]
    for p in ready:
        p.calibrate(light=True)
    times: list[list[float]] = [[] for _ in ready]
    cpu, wall = time.process_time(), time.perf_counter()
    for _ in range(rounds):
        for p, out in zip(ready, times):
            out.append(p.time_calls(p.number) / p.number)
    share = (time.process_time() - cpu) / max(time.perf_counter() - wall, 1e-9)
    return [tuple(t) for t in times], share
