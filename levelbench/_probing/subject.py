"""The function under diagnosis, the call it is diagnosed on, and what was measured about it.

Probes share one `Subject`: tracing, compiling, cost analysis and timing each happen at most once
(per input size) however many probes need them. A probe that finds compiling the user's input
too costly (an unrolled loop over 1000 steps) can `shorten` the call, and the probes after it run
on the shorter one.
"""

from __future__ import annotations

import dataclasses
import time
import warnings
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

from .._results.measurement import Measurement
from .._measuring.sampler import QuickTiming, quick_timing
from .._results.measurement import CompileTimes
from .._frameworks.jax_adapter import ADAPTER as JAX
from .._frameworks.jax_adapter import cache_miss_explanations
from .._frameworks import TRACE, compile_events
from .arguments import Call, is_array

@dataclasses.dataclass(frozen=True)
class Trace:
    """One trace of the function: the program (``jaxpr``), or the ``error`` tracing raised."""

    jaxpr: Any = None
    out_tree: Any = None
    warnings: tuple[warnings.WarningMessage, ...] = ()
    seconds: float = 0.0
    traced: Any = None  # the jax.stages.Traced, to lower and compile without tracing again
    error: BaseException | None = None
    fresh: Any = None  # a Traced of a fresh copy, when ``traced`` came from JAX's cache

    @property
    def ok(self) -> bool:
        return self.jaxpr is not None


@dataclasses.dataclass(frozen=True)
class CallRecord:
    """What one call of the function as given compiled (JAX's compile events during it)."""

    compilations: int
    traces: int
    seconds: float
    functions: tuple[str, ...]
    explanations: tuple[str, ...]


REPEATS = 3


@dataclasses.dataclass(frozen=True)
class Compiled:
    executable: Any
    split: CompileTimes


@dataclasses.dataclass(frozen=True)
class Shortening:
    """Probes ran on the call with ``argument`` cut from ``length`` to ``to`` along ``axis``."""

    argument: str
    axis: int
    length: int
    to: int
    reason: str

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Subject:
    """``fn`` and its example call, with facts about it computed on demand and kept."""

    def __init__(self, fn: Callable[..., Any], args: tuple, kwargs: dict, *, label: str, framework: str,
                 calls: list[Call] | None = None, scale_axis: Any = None, budget: float = 10.0,
                 quick: bool = False, measurement: Measurement | None = None):
        self.fn, self.args, self.kwargs = fn, args, kwargs
        self.label, self.framework = label, framework
        self.calls = calls
        self.scale_axis = scale_axis
        self.budget, self.quick = budget, quick
        self.is_jitted = framework == "jax" and JAX.is_jitted(fn)
        self.measured: dict[str, Any] = {}
        self.notes: list[str] = []
        self.shortening: Shortening | None = None
        self._given_measurement = measurement
        self._facts: dict[str, Any] = {}
        self.given_calls: tuple[CallRecord, ...] = ()

    def record_given_calls(self, records: list[CallRecord]) -> None:
        """What explain's own calls as given compiled: its first call, then a second, identical one.

        A second identical call that compiled again is a recompilation seen already, counted in
        JAX's own compile events: it stands for the repeated calls (`repeated_calls`), so the
        probes that read them (LB210, the dispatch probe's test) need no more calls, whatever the
        budget left. A second call that compiled nothing leaves the repeated calls to be made.
        """
        self.given_calls = tuple(records)
        self._seed_repeated_calls()

    def _seed_repeated_calls(self) -> None:
        if len(self.given_calls) > 1 and all(r.compilations for r in self.given_calls[1:]):
            self._facts["repeated_calls"] = list(self.given_calls)

    # -- the call probes run on ----------------------------------------------------------------
    def shorten(self, args: tuple, kwargs: dict, shortening: Shortening, *, fresh: tuple | None = None,
                trace: Trace | None = None, compiled: Compiled | None = None) -> None:
        """Run the probes that follow on a shorter call (facts measured so far are dropped).

        ``fresh``, ``trace`` and ``compiled``: a fresh jit of ``fn`` at the shorter call, already
        traced and compiled, reused for an unjitted ``fn`` (a jitted one must compile its own).
        """
        self.args, self.kwargs = args, kwargs
        self.shortening = shortening
        self._facts.clear()
        self._seed_repeated_calls()  # compiling on every call does not depend on the length
        self._given_measurement = None
        if fresh is not None and trace is not None:
            self.adopt(fresh, trace, compiled)
        self.notes.append(
            f"probes after 'unrolled' ran with {shortening.argument} cut to {shortening.to} of "
            f"{shortening.length} along axis {shortening.axis}: {shortening.reason}"
        )

    def adopt(self, fresh: tuple, trace: Trace, compiled: Compiled | None = None) -> None:
        """Take a fresh jit of ``fn`` at the current call, already traced (and compiled) by a probe, as
        this subject's program, so it is not traced and compiled again; for an unjitted ``fn`` only
        (a jitted one is measured through its own jit)."""
        if self.is_jitted:
            return
        self._facts["fresh_jit"] = fresh
        self._facts["traced"] = trace
        if compiled is not None:
            self._facts["compiled"] = compiled
            self.measured["compile"] = {**compiled.split.to_dict(), "total": compiled.split.total}

    @property
    def measure_budget(self) -> float:
        """Seconds of sampling for each timing a probe takes (beyond its first few samples)."""
        return 0.05 if self.quick else min(0.5, max(0.05, self.budget / 20))

    def known(self, name: str) -> bool:
        """The fact ``name`` (``traced``, ``compiled``, ``timing``...) is computed already: a probe
        reading it costs nothing more (explain's budget estimates what each probe will cost)."""
        if name == "timing" and self._given_measurement is not None:
            return True
        return name in self._facts

    def _fact(self, name: str, compute: Callable[[], Any]) -> Any:
        if name not in self._facts:
            self._facts[name] = compute()
        return self._facts[name]

    # -- JAX program ---------------------------------------------------------------------------
    def jit_target(self) -> tuple[Callable[..., Any], tuple, dict]:
        """The jitted callable and its arguments: the user's own ``jax.jit`` function as called, or a
        fresh ``jax.jit`` of ``fn`` taking the call's arrays (the rest of the call is held fixed)."""
        if self.is_jitted:
            return self.fn, self.args, self.kwargs
        jitted, arrays = self._fact("fresh_jit", lambda: fresh_jit(self.fn, self.args, self.kwargs))
        return jitted, tuple(arrays), {}

    def traced(self) -> Trace:
        """The program at the current call, traced for real (so JAX's dtype warnings are seen)."""
        return self._fact("traced", self._trace)

    def _trace(self) -> Trace:
        f, args, kwargs = self.jit_target()
        # A cold compile, as a fresh process pays it: the user may have called the function (or
        # its jitted helpers) already, and JAX would then reuse their traces and programs.
        _clear_jax_caches()
        trace = trace_once(f, args, kwargs)
        if trace.ok and trace.seconds == 0.0 and self.is_jitted:
            # Still a cache hit (a cache clear_caches does not reach): trace a fresh copy for the
            # warnings and the time, but keep the user's Traced for lowering.
            fresh, arrays = fresh_jit(self.fn, self.args, self.kwargs)
            again = trace_once(fresh, tuple(arrays), {})
            if again.ok:
                trace = dataclasses.replace(again, traced=trace.traced, fresh=again.traced)
        return trace

    def compiled(self) -> Compiled | None:
        """The compiled program at the current call, with the trace/lower/compile split."""
        return self._fact("compiled", self._compile)

    def _compile(self) -> Compiled | None:
        trace = self.traced()
        if not trace.ok:
            return None
        executable, lower, compile, compilations = _lower_and_compile(trace.traced)
        cached = compilations == 0
        seconds = trace.seconds
        if cached:
            # Yours was compiled before explain saw it: time a fresh copy so the numbers are real.
            fresh = trace.fresh
            if fresh is None:
                jitted, arrays = fresh_jit(self.fn, self.args, self.kwargs)
                again = trace_once(jitted, tuple(arrays), {})
                fresh, seconds = (again.traced, again.seconds) if again.ok else (None, seconds)
            if fresh is not None:
                _, lower, compile, _ = _lower_and_compile(fresh)
        split = CompileTimes(seconds, lower, compile, source="aot", cached=cached)
        self.measured["compile"] = {**split.to_dict(), "total": split.total}
        return Compiled(executable, split)

    def cost(self) -> dict[str, float] | None:
        """XLA's cost analysis of the compiled program, as it gave it (may be empty or hold -1)."""
        return self._fact("cost", self._cost)

    def _cost(self) -> dict[str, float] | None:
        compiled = self.compiled()
        if compiled is None:
            return None
        try:
            cost = compiled.executable.cost_analysis()
        except Exception:  # a backend without cost analysis
            return None
        if isinstance(cost, (list, tuple)):
            cost = cost[0] if cost else {}
        return {str(k): float(v) for k, v in dict(cost or {}).items() if isinstance(v, (int, float))}

    # -- calls as given ------------------------------------------------------------------------
    def repeated_calls(self) -> list[CallRecord]:
        """The example call made `REPEATS` times as given, with what each call compiled.

        The recompilation probe reads it for LB210, and the dispatch probe to tell a function that
        is slow op by op from one that compiles on every call.
        """
        return self._fact("repeated_calls", lambda: call_each(self.fn, [Call(*self.args, **self.kwargs)] * REPEATS))

    def compiles_every_call(self) -> bool:
        """Each call after the first compiled again (its time is compilation, not running)."""
        records = self.repeated_calls()
        return len(records) > 1 and all(r.compilations for r in records[1:])

    # -- timings -------------------------------------------------------------------------------
    def timing(self) -> QuickTiming | None:
        """``fn`` as the user calls it (op by op if it is not jitted), timed."""
        if self._given_measurement is not None:
            return QuickTiming.of(self._given_measurement)
        return self._fact("timing", lambda: self._time(self.fn, self.args, self.kwargs, "as given"))

    def jitted_timing(self) -> QuickTiming | None:
        """The jitted program at the current call, timed (the same as `timing` for a jitted fn).

        The program is compiled first (`compiled`), so the timing's first call is a first run.
        """
        if self.is_jitted:
            if self.framework == "jax" and self.traced().ok:
                self.compiled()
            return self.timing()

        def run() -> QuickTiming | None:
            if self.compiled() is None:
                return None
            f, args, kwargs = self.jit_target()
            return self._time(f, args, kwargs, "jitted")

        return self._fact("jitted_timing", run)

    def _time(self, fn: Callable[..., Any], args: tuple, kwargs: dict, what: str) -> QuickTiming | None:
        try:
            return quick_timing(fn, args, kwargs, self.measure_budget, floor="jax" if self.framework == "jax" else None)
        except Exception as e:  # a function that fails: the probes that need a time say nothing
            self.notes.append(f"timing {self.label} ({what}) failed: {type(e).__name__}: {_first_line(e)}")
            return None


def call_each(fn: Callable[..., Any], calls: list[Call]) -> list[CallRecord]:
    """Call ``fn`` once per call, waiting for each result, and record what each compiled."""
    import jax

    records: list[CallRecord] = []
    for call in calls:
        with recording_compiles(records):
            jax.block_until_ready(fn(*call.args, **call.kwargs))
    return records


@contextmanager
def recording_compiles(records: list[CallRecord]) -> Iterator[None]:
    """Append to ``records`` what the block compiled: JAX's compile events and its cache-miss
    explanations (``jax_explain_cache_misses`` is not part of JAX's cache keys: turning it on
    recompiles nothing). Nothing is appended when the block raises."""
    with cache_miss_explanations() as explanations, compile_events() as log:
        yield
    records.append(CallRecord(log.compilations, log.traces, log.total_seconds, tuple(log.compiled_functions()),
                              tuple(explanations)))


def fresh_jit(fn: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[Callable[..., Any], list[Any]]:
    """A new ``jax.jit`` of ``fn`` (unwrapped if it is jitted already) over the call's arrays.

    Non-array leaves (Python numbers, strings, modules) are held fixed, as ``static_argnums`` would.
    Being a new function, it misses JAX's tracing cache, so tracing it costs and warns as on a first call.
    """
    import jax

    base = getattr(fn, "__wrapped__", fn) if JAX.is_jitted(fn) else fn
    call, arrays = over_arrays(base, args, kwargs)
    name = getattr(base, "__name__", None) or type(base).__name__
    call.__name__ = call.__qualname__ = str(name)
    return jax.jit(call), arrays


def over_arrays(fn: Callable[..., Any], args: tuple, kwargs: dict) -> tuple[Callable[..., Any], list[Any]]:
    """``fn`` as a function of the call's array leaves only (in pytree order), the other leaves held as given;
    and those arrays."""
    import jax

    flat, tree = jax.tree_util.tree_flatten((args, kwargs))
    dynamic = [i for i, x in enumerate(flat) if is_array(x)]

    def call(*arrays: Any) -> Any:
        full = list(flat)
        for i, x in zip(dynamic, arrays):
            full[i] = x
        a, k = jax.tree_util.tree_unflatten(tree, full)
        return fn(*a, **k)

    return call, [flat[i] for i in dynamic]


def trace_once(f: Any, args: tuple, kwargs: dict) -> Trace:
    """Trace a jitted callable, timing it and keeping JAX's warnings; ``seconds`` is 0 on a cache hit."""
    with warnings.catch_warnings(record=True) as caught, compile_events() as log:
        warnings.simplefilter("always")
        t0 = time.perf_counter()
        try:
            traced = f.trace(*args, **kwargs)
        except Exception as e:  # not traceable: the probes report why
            return Trace(error=e, warnings=tuple(caught), seconds=time.perf_counter() - t0)
        elapsed = time.perf_counter() - t0
    traced_now = any(e.stage == TRACE for e in log.events)
    return Trace(traced.jaxpr, traced.out_tree, tuple(caught), elapsed if traced_now else 0.0, traced)


def _clear_jax_caches() -> None:
    import jax

    jax.clear_caches()


def _lower_and_compile(traced: Any) -> tuple[Any, float, float, int]:
    with compile_events() as log:
        t0 = time.perf_counter()
        lowered = traced.lower()
        t1 = time.perf_counter()
        executable = lowered.compile()
        t2 = time.perf_counter()
    return executable, t1 - t0, t2 - t1, log.compilations


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else ""
