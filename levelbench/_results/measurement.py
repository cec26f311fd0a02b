"""`Measurement`: the frozen result of timing one callable. Statistics are derived, never stored twice."""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from .._values import display
from .._values.findings import Finding, Severity
from .._values.documents import check_format
from .._values.stats import Interval, iqr, median_ci

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


FORMAT = "levelbench.measurement"
FORMAT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Measurement:
    """Timing of one callable: cold start apart from steady state, with self-checks.

    All times are seconds per call. ``samples`` holds one per-call time per sample (each sample
    ran ``calls_per_sample`` calls, each call waited for its whole output).

    Attributes:
        label: what was timed.
        framework: ``"jax"``, ``"torch"``, ``"numpy"`` or ``"python"``.
        samples: steady-state per-call times, in the order taken.
        calls_per_sample: calls in each sample (chosen so a sample lasts at least the target).
        first_call: the first call on its own, waited for. For a jitted function it follows the
            ahead-of-time compile in ``compile``, so ``cold_start = compile.total + first_call``.
        compile: trace/lower/compile split for jitted JAX functions, else None.
        compile_in_first_call: seconds JAX reported compiling during the first call.
        block_overhead: cost of waiting on an already-finished output (part of every call).
        dispatch_floor: per-call time of the framework's cheapest call (an empty jitted op).
        unblocked_call: time for the call to *return* without waiting (async dispatch), if any.
        total_time: wall time the whole measurement took.
        recompilations: compilations seen during sampling (those samples were discarded).
        discarded_samples: samples dropped because a compilation happened in them.
        target_reached: the median's CI got within ``rel_ci_target`` before the budget ran out.
        flops: floating-point operations per call, when known.
        output_dtype: dtype of the first floating-point output (what precision the work ran in).
        findings: self-checks that failed, each with evidence and the fix.
        environment: versions, devices, threads, flags (see `levelbench.environment`).
    """

    label: str
    framework: str
    samples: tuple[float, ...]
    calls_per_sample: int
    first_call: float
    compile: CompileTimes | None = None
    compile_in_first_call: float = 0.0
    block_overhead: float | None = None
    dispatch_floor: float | None = None
    unblocked_call: float | None = None
    total_time: float = 0.0
    recompilations: int = 0
    discarded_samples: int = 0
    target_reached: bool = False
    rel_ci_target: float = 0.01
    confidence: float = 0.95
    flops: float | None = None
    output_dtype: str | None = None
    findings: tuple[Finding, ...] = ()
    environment: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)

    # -- statistics (derived) ------------------------------------------------------------------
    @functools.cached_property
    def ci(self) -> Interval:
        """Median per-call time with its confidence interval (order statistics, distribution-free)."""
        return median_ci(self.samples, self.confidence)

    @property
    def median(self) -> float:
        return self.ci.estimate

    @property
    def steady_median(self) -> float:
        return self.ci.estimate

    @property
    def min(self) -> float:
        return float(np.min(self.samples))

    @property
    def mean(self) -> float:
        return float(np.mean(self.samples))

    @property
    def std(self) -> float:
        return float(np.std(self.samples, ddof=1)) if len(self.samples) > 1 else 0.0

    @property
    def iqr(self) -> float:
        return iqr(self.samples)

    @property
    def n_samples(self) -> int:
        return len(self.samples)

    @property
    def cold_start(self) -> float:
        """Everything the first use costs: compilation (if done ahead of time) plus the first call."""
        return self.first_call + (self.compile.total if self.compile else 0.0)

    @property
    def gflops(self) -> float | None:
        return self.flops / self.median / 1e9 if self.flops else None

    @property
    def precision(self) -> str:
        """``"float64"`` if the output is double precision, else ``"float32"`` (for peak FLOP/s)."""
        return "float64" if self.output_dtype in ("float64", "complex128") else "float32"

    # -- IPython's TimeitResult, same names and meanings (code written for %timeit -o keeps working) --
    @property
    def loops(self) -> int:
        """Calls per sample (%timeit's "loops")."""
        return self.calls_per_sample

    @property
    def repeat(self) -> int:
        """Samples taken (%timeit's "runs")."""
        return len(self.samples)

    @property
    def timings(self) -> list[float]:
        """Per-call time of each sample."""
        return list(self.samples)

    @property
    def all_runs(self) -> list[float]:
        """Total time of each sample: ``loops`` calls."""
        return [t * self.calls_per_sample for t in self.samples]

    @property
    def best(self) -> float:
        return self.min

    @property
    def worst(self) -> float:
        return float(np.max(self.samples))

    @property
    def average(self) -> float:
        return self.mean

    @property
    def stdev(self) -> float:
        """Population standard deviation of ``timings``, as %timeit computes it (``std`` is the sample one)."""
        return float(np.std(self.samples)) if self.samples else 0.0

    @property
    def compile_time(self) -> float:
        """Seconds JAX spent tracing and compiling before (or in) the first call; 0 when nothing compiled.
        (%timeit's compile_time is Python's compile of the statement, which is ~0 for a call.)"""
        return self.compile.total if self.compile is not None else self.compile_in_first_call

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity >= Severity.WARNING)

    def has(self, code: str) -> bool:
        return any(f.code == code for f in self.findings)

    # -- serialisation ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        d = {f.name: getattr(self, f.name) for f in dataclasses.fields(self)}
        d["samples"] = list(self.samples)
        d["compile"] = self.compile.to_dict() if self.compile else None
        d["findings"] = [f.to_dict() for f in self.findings]
        d["stats"] = {
            "median": self.median,
            "ci": self.ci.to_dict(),
            "min": self.min,
            "mean": self.mean,
            "std": self.std,
            "iqr": self.iqr,
        }
        return {"format": FORMAT, "version": FORMAT_VERSION, **d}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Measurement":
        check_format(d, FORMAT, FORMAT_VERSION, "measurement")
        names = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        kw["samples"] = tuple(kw["samples"])
        kw["compile"] = CompileTimes.from_dict(kw["compile"]) if kw.get("compile") else None
        kw["findings"] = tuple(Finding.from_dict(f) for f in kw.get("findings", ()))
        return cls(**kw)

    def __rich__(self) -> Any:
        return display.renderable(self)

    def __str__(self) -> str:
        return display.text(self, width=100)