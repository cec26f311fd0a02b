"""`ScriptAudit`: what ``levelbench doctor --run`` saw while the user's script ran, interval by interval.

Plain frozen values: the renderers and the store read them without loading the engine that made them.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable
from typing import Any, TypeVar

_Key = TypeVar("_Key")

from .._values.findings import Finding

FORMAT_VERSION = 1
"""Of `ScriptAudit.to_dict`; raised when a field changes meaning or goes away."""


@dataclasses.dataclass(frozen=True)
class Sample:
    """One time the script computed the interval's difference.

    Attributes:
        measured: what the script's difference came to, in seconds.
        compile: seconds of JAX tracing, lowering and XLA compilation that ended inside it.
        compiled: per function, the seconds of compile events (``{"f": 1.9}``).
        traces: per function, how many times it was traced inside it (a jit cache miss each).
        pending: seconds the JAX work still computing at the closing read took to finish, less what work already
            running at the opening read (started before the interval) went on past the closing one.
        pending_arrays: how many JAX arrays were still computing then.
        grad_enabled: torch's grad mode at the closing read (None: torch not imported).
        calibration: a run ``%timeit`` made to choose its loop count: not in the figure it prints.
        eager_dispatches: JAX operations dispatched one by one (not inside a jitted function) inside it.
        jit_calls: calls of functions the script jitted inside it.
        to_device / to_device_bytes: host-to-device transfers (NumPy arrays given to JAX) and their bytes.
        to_host / to_host_bytes: device-to-host transfers (JAX arrays read as NumPy or Python values), bytes.
        jits_created: per function, how many times ``jax.jit`` was called on it inside it.
        loops: the calls of the statement it timed (timeit's ``number``; 1 for a pair of reads around code).
        unwaited: JAX dispatches of this sample made after the script last waited for a result, at the closing
            read: work the clock did not wait for, whether or not it had finished by then.
        empty_outputs: jitted calls inside it that returned no array (None or an empty pytree): compiled and
            dispatched, their result unusable (LB107).
        function_dropped: the function (``<lambda>``) timeit's statement created and dropped without calling it
            (LB101): the sample timed the making of a function object; "" otherwise.
        module_calls: outermost calls of torch modules inside it (a module called by another is part of its call).
        module_calls_grad: of those, calls with autograd on (``torch.is_grad_enabled()`` at the call).
        module_calls_training: of those, calls in training mode of a module with dropout or batch norm, where
            training mode computes something else than inference.
        backward_calls: torch backward passes inside it (a training step: grad mode and training mode are meant).
        module: the torch module class called most inside it, or "".
    """

    measured: float
    compile: float = 0.0
    compiled: dict[str, float] = dataclasses.field(default_factory=dict)
    traces: dict[str, int] = dataclasses.field(default_factory=dict)
    pending: float = 0.0
    pending_arrays: int = 0
    grad_enabled: bool | None = None
    calibration: bool = False
    eager_dispatches: int = 0
    jit_calls: int = 0
    to_device: int = 0
    to_device_bytes: int = 0
    to_host: int = 0
    to_host_bytes: int = 0
    jits_created: dict[str, int] = dataclasses.field(default_factory=dict)
    unwaited: int = 0
    loops: int = 1
    empty_outputs: int = 0
    function_dropped: str = ""
    module_calls: int = 0
    module_calls_grad: int = 0
    module_calls_training: int = 0
    backward_calls: int = 0
    module: str = ""

    @property
    def cold(self) -> bool:
        """Whether a compilation ran inside it: the first (cold) call of a jitted function was timed."""
        return self.compile > 0.0

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "cold": self.cold}


@dataclasses.dataclass(frozen=True)
class FairFigure:
    """The interval's statements re-timed with `levelbench.measure` after the script ended: warmed, every
    output waited for, repeated. ``median`` with its 95% CI ``low``-``high``, seconds, from ``samples`` samples;
    ``framework``: of what the statements returned (``jax``, ``torch``, ``numpy`` or ``python``)."""

    median: float
    low: float
    high: float
    samples: int
    framework: str = ""


@dataclasses.dataclass(frozen=True)
class ThreadSettings:
    """The BLAS thread settings in effect when the script ended (NumPy's, and any other BLAS it loaded).

    ``pools``: ``(library, threads)`` per BLAS thread pool, as threadpoolctl reads them (``read_by``
    ``"threadpoolctl"``), empty where threadpoolctl is not installed (``read_by`` ``"environment"``); ``env``:
    the thread environment variables set (``OMP_NUM_THREADS``, ``OPENBLAS_NUM_THREADS``...), name and value."""

    pools: tuple[tuple[str, int], ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    read_by: str = ""

    @classmethod
    def from_raw(cls, raw: dict[str, Any]) -> "ThreadSettings":
        pools = tuple((str(p.get("internal_api") or p.get("user_api") or "?"), int(p.get("num_threads") or 0))
                      for p in raw.get("pools", ()))
        return cls(pools, tuple((str(k), str(v)) for k, v in raw.get("env", {}).items()), str(raw.get("read_by", "")))

    def to_dict(self) -> dict[str, Any]:
        return {"pools": [list(p) for p in self.pools], "env": dict(self.env), "read_by": self.read_by}


@dataclasses.dataclass(frozen=True)
class IsolatedRatio:
    """Two intervals' statements timed with `levelbench.compare`'s isolated workers: each in a process of its
    own, interleaved. ``ratio`` (``first``'s time over ``second``'s) with its 95% CI ``low``-``high`` from
    ``rounds`` rounds; or ``note``: why it could not be measured (``ratio`` then NaN)."""

    first: tuple[int, int]
    second: tuple[int, int]
    ratio: float = float("nan")
    low: float = float("nan")
    high: float = float("nan")
    rounds: int = 0
    note: str = ""


@dataclasses.dataclass(frozen=True)
class FrameworkRatio:
    """Two intervals of the script that time different frameworks: the ratio the script's figures imply
    (``implied``: ``first``'s measured over ``second``'s) beside the ratio of their fair figures (``fair``,
    re-timed one after the other in the script's process) and, where measured, the ratio from isolated workers
    (``isolated``, or None and ``isolated_note`` says why)."""

    first: str
    second: str
    first_lines: str
    second_lines: str
    implied: float
    fair: float
    isolated: IsolatedRatio | None = None
    isolated_note: str = ""

    def to_dict(self) -> dict[str, Any]:
        doc = dataclasses.asdict(self)
        isolated = self.isolated
        doc["isolated"] = None if isolated is None or isolated.note else \
            {"ratio": isolated.ratio, "low": isolated.low, "high": isolated.high, "rounds": isolated.rounds}
        return doc


def first_of_each_framework(items: Iterable[tuple[_Key, str]]) -> dict[str, _Key]:
    """The first item of each framework named (``""``: none), in order: the intervals whose ratios are shown."""
    first: dict[str, _Key] = {}
    for key, framework in items:
        if framework:
            first.setdefault(framework, key)
    return first


@dataclasses.dataclass(frozen=True)
class TimedInterval:
    """A pair of clock reads whose difference the script computed: ``t0 = clock()`` ... ``clock() - t0``.

    Attributes:
        opening_line / closing_line: the lines of the two reads in the script.
        clock: the clock read (``perf_counter``, ``time``, ``datetime.now``...).
        samples: each time the script computed this difference, in order.
        via_timeit: the reads were ``timeit``'s (``timeit.timeit``/``repeat`` called on ``opening_line``).
        loop_inside: a loop lies between the two reads: each sample times many calls.
        findings: what is wrong with it, each with the evidence measured.
        source: the lines from the opening read to the closing read, as written.
        fair: the statements between the reads re-timed (`FairFigure`), or None, and then ``fair_note`` says why.
        magic: the IPython timing magic whose reads these are (``time``, ``timeit``), ``benchmark`` for
            pytest-benchmark's ``benchmark`` fixture (a test file run under pytest), or "".
        times_compilation: the script's own words that say the interval times compilation on purpose (a
            comment, name or label such as ``# compile time`` or ``first_run_time``), or "": its compilation
            is then what it measures, not a finding (no LB103, LB111, LB117).
    """

    opening_line: int
    closing_line: int
    clock: str
    samples: tuple[Sample, ...]
    via_timeit: bool = False
    loop_inside: bool = False
    findings: tuple[Finding, ...] = ()
    source: str = ""
    fair: FairFigure | None = None
    fair_note: str = ""
    magic: str = ""
    times_compilation: str = ""

    @property
    def timed(self) -> tuple[Sample, ...]:
        """The samples in the figure the script reports: all but ``%timeit``'s calibration runs."""
        return tuple(s for s in self.samples if not s.calibration) or self.samples

    @property
    def lines(self) -> str:
        if self.opening_line == self.closing_line:
            return f"line {self.opening_line}"
        return f"lines {self.opening_line}-{self.closing_line}"

    @property
    def measured(self) -> float:
        """The median of what the script measured, seconds."""
        values = sorted(s.measured for s in self.timed)
        middle = len(values) // 2
        return values[middle] if len(values) % 2 else (values[middle - 1] + values[middle]) / 2

    def to_dict(self) -> dict[str, Any]:
        return {
            "opening_line": self.opening_line, "closing_line": self.closing_line, "clock": self.clock,
            "via_timeit": self.via_timeit, "loop_inside": self.loop_inside, "source": self.source,
            "measured_median": self.measured, "samples": [s.to_dict() for s in self.samples],
            "findings": [f.to_dict() for f in self.findings],
            "fair": dataclasses.asdict(self.fair) if self.fair is not None else None, "fair_note": self.fair_note,
            "magic": self.magic, "times_compilation": self.times_compilation,
        }


@dataclasses.dataclass(frozen=True)
class ScriptAudit:
    """The run of one script under ``doctor --run``.

    Attributes:
        script: the path as given.
        argv: the arguments it was given (``sys.argv[1:]``).
        status: ``finished`` (returned or ``sys.exit(0)``), ``exited`` (``sys.exit(N)``, N != 0), ``raised``
            (an exception; ``error`` and ``traceback`` say which), ``timeout`` (stopped at the time limit),
            ``interrupted`` (Ctrl-C, SIGTERM), ``died`` (ended without a word: ``os._exit``, a crash, a kill).
        exit_code: the script's exit status.
        wall_s: seconds the script ran.
        intervals: the timed intervals, in the order of their first sample.
        partial: True when the script did not run to its end: what is reported is what ran before.
        observed: False when nothing could be read back from the child (it died before writing it).
        error / traceback: for ``raised``: the exception on one line, and as Python printed it.
        output: the script's output, when it was captured (``quiet``).
        captured: whether the output was captured (else it was shown as the script ran).
        jax_version: of the jax the script imported ("" if none).
        unrecorded_reads: clock reads past the most recorded (a million), counted only.
        isolated: the framework pairs timed in isolated workers (`ratios` shows them), or why not.
        threads: the BLAS thread settings when the script ended, where it imported NumPy; else None.
        instrumented: what the instrumentation did, by kind (``clock_reads``, ``pending_checks``, ``dispatches``,
            ``compile_events``, ``module_calls``): its overhead is these counts times their unit costs.
    """

    script: str
    argv: tuple[str, ...]
    status: str
    exit_code: int
    wall_s: float
    intervals: tuple[TimedInterval, ...] = ()
    partial: bool = False
    observed: bool = True
    error: str = ""
    traceback: str = ""
    output: str = ""
    captured: bool = False
    jax_version: str = ""
    unrecorded_reads: int = 0
    isolated: tuple[IsolatedRatio, ...] = ()
    threads: ThreadSettings | None = None
    instrumented: dict[str, int] = dataclasses.field(default_factory=dict)

    @property
    def findings(self) -> tuple[Finding, ...]:
        return tuple(f for interval in self.intervals for f in interval.findings)

    @property
    def ratios(self) -> tuple[FrameworkRatio, ...]:
        """For each two frameworks the script timed (the first interval of each with a fair figure), the
        ratio its figures imply, the fair one, and the isolated workers' one where measured. Whether the two
        compute the same thing is the script's."""
        first_of = first_of_each_framework(
            (interval, interval.fair.framework) for interval in self.intervals
            if interval.fair is not None and interval.fair.median > 0 and interval.measured > 0)
        isolated = {(r.first, r.second): r for r in self.isolated}
        found = []
        frameworks = list(first_of)
        for i, name in enumerate(frameworks):
            for other in frameworks[i + 1:]:
                a, b = first_of[name], first_of[other]
                assert a.fair is not None and b.fair is not None
                pair = isolated.get(((a.opening_line, a.closing_line), (b.opening_line, b.closing_line)))
                note = "not measured in isolated workers" if pair is None else pair.note
                found.append(FrameworkRatio(name, other, a.lines, b.lines, a.measured / b.measured,
                                            a.fair.median / b.fair.median, pair if pair and not pair.note else None,
                                            note))
        return tuple(found)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format_version": FORMAT_VERSION, "script": self.script, "argv": list(self.argv), "status": self.status,
            "exit_code": self.exit_code, "wall_s": self.wall_s, "partial": self.partial, "observed": self.observed,
            "error": self.error, "traceback": self.traceback, "output": self.output, "captured": self.captured,
            "jax_version": self.jax_version, "unrecorded_reads": self.unrecorded_reads,
            "threads": self.threads.to_dict() if self.threads is not None else None,
            "instrumented": dict(self.instrumented),
            "intervals": [i.to_dict() for i in self.intervals], "ratios": [r.to_dict() for r in self.ratios],
        }
