"""Lanes: where one candidate's calls run, this process (`LocalLane`) or a worker process.

`compare` drives every candidate through the same steps, whatever process it lives in: its
first call (outputs back as NumPy for the agreement check), calibration, blocks of samples, and
the final `Measurement`. A worker process hosts `LocalLane`s and answers the same steps over a
pipe (`levelbench._workers`), so the steps are written once, here.
"""

from __future__ import annotations

import dataclasses
import pickle
import statistics
import time
from collections.abc import Callable
from typing import Any

from .candidate import Candidate
from .._values.findings import Finding, Severity
from .._results.measurement import CompileTimes, Measurement
from .parity import ArrayLeaf, array_leaves, to_numpy_leaves
from .._values.gc import gc_paused
from .sampler import Options, Prepared
from .._frameworks import framework_of
from .._values.targets import load_target
from .environment import collect, cpu_times

Timer = Callable[[], float]


@dataclasses.dataclass(frozen=True)
class LaneInfo:
    """What is known of a candidate before it runs: enough to check inputs and plan the workers."""

    name: str
    framework: str
    group: str
    note: str
    inputs: tuple[ArrayLeaf, ...]
    flops: float | None


@dataclasses.dataclass(frozen=True)
class FirstCall:
    """The first call's outcome: the framework it ran in, its checked output as NumPy leaves, and
    its cost (kept by the caller, so a candidate stopped later still has its cold start)."""

    framework: str
    outputs: tuple[tuple[str, Any], ...]
    seconds: float = 0.0
    compile: CompileTimes | None = None
    compile_in_first_call: float = 0.0


@dataclasses.dataclass(frozen=True)
class Calibration:
    """Calls per sample, and how long one sample takes."""

    number: int
    sample_seconds: float


@dataclasses.dataclass(frozen=True)
class Block:
    """One candidate's turn in a round: its per-call times (None: discarded, JAX compiled during
    it) and the warm-up samples taken first and discarded."""

    samples: tuple[float | None, ...]
    warmup: tuple[float | None, ...] = ()

    @property
    def median(self) -> float | None:
        kept = [s for s in self.samples if s is not None]
        return statistics.median(kept) if kept else None


class Opaque:
    """Stands for an output leaf that cannot cross a process boundary (only its type is kept)."""

    def __init__(self, type_name: str) -> None:
        self.type_name = type_name

    def __repr__(self) -> str:
        return f"<{self.type_name}>"


class LocalLane:
    """A candidate timed in this process."""

    def __init__(self, name: str, candidate: Candidate, options: Options, timer: Timer = time.perf_counter) -> None:
        self.name, self.candidate, self.options, self.timer = name, candidate, options, timer
        self.prepared: Prepared | None = None
        self.cpu_at_start: dict[str, int] | None = None  # /proc/stat when sampling began: the steal since
        c = candidate
        self.info = LaneInfo(name, framework_of(c.fn, c.args, c.kwargs), c.group, c.note,
                             tuple(array_leaves(c.checked_inputs)), c.flops)

    @property
    def _p(self) -> Prepared:
        if self.prepared is None:
            raise RuntimeError(f"{self.name}: first_call() must come before timing")
        return self.prepared

    def first_call(self, portable: bool = False) -> FirstCall:
        """Call once (for jitted JAX: compile first, timed apart); the checked output as NumPy.

        ``portable`` replaces output leaves that cannot be pickled, for sending to another process.
        """
        c = self.candidate
        self.prepared = Prepared(c.fn, c.args, c.kwargs, self.name, self.options, self.timer)
        outputs = tuple(to_numpy_leaves(c.checked(self.prepared.result)))
        if portable:
            outputs = tuple((path, _portable(leaf)) for path, leaf in outputs)
        p = self.prepared
        return FirstCall(p.framework, outputs, p.first_call, p.compile, p.compile_in_first_call)

    def calibrate(self) -> Calibration:
        self.cpu_at_start = cpu_times()
        p = self._p
        with gc_paused(collect=True):
            p.calibrate()
        return Calibration(p.number, p.sample_seconds)

    def block(self, samples: int, warmup: int = 0) -> Block:
        """``warmup`` samples (timed, discarded), then ``samples`` kept samples; no GC in between."""
        p = self._p
        with gc_paused():
            warm = tuple(p.sample(keep=False) for _ in range(warmup))
            return Block(tuple(p.sample() for _ in range(samples)), warm)

    def loose_sample(self) -> float | None:
        """One sample that is not kept: a back-to-back figure, taken without waiting first."""
        with gc_paused():
            return self._p.sample(keep=False)

    def finish(self, *, target_reached: bool, count_flops: bool = True, environment: dict[str, Any] | None = None,
               extra_findings: str | None = None) -> tuple[Measurement, tuple[Finding, ...]]:
        """The measurement, and what ``extra_findings`` adds: a function named ``"module:function"``,
        called here (in the candidate's process) as ``function(name, candidate, measurement)``,
        e.g. `levelbench run`'s diagnosis of JAX candidates. Named, not passed, so that a worker
        process can find it; a failure of it is reported as an LB299 note, never fatal."""
        c, p = self.candidate, self._p
        flops = c.flops
        if flops is None and count_flops:
            flops = p.adapter.flops(c.fn, c.args, c.kwargs)
        if environment is None:
            environment = collect(cpu_at_start=self.cpu_at_start)
        m = p.measurement(target_reached=target_reached, flops=flops, environment=environment)
        return m, (_extra(extra_findings, self.name, c, m) if extra_findings else ())

    def close(self) -> None:
        self.prepared = None


def _extra(target: str, name: str, c: Candidate, m: Measurement) -> tuple[Finding, ...]:
    try:
        return tuple(load_target(target)(name, c, m))
    except Exception as e:  # extra information: it never fails the candidate
        return (Finding("LB299", f"{target} could not add its findings for this candidate: {type(e).__name__}",
                        Severity.INFO, evidence=str(e)[:300], subject=name),)


def _portable(leaf: Any) -> Any:
    try:
        pickle.dumps(leaf)
        return leaf
    except Exception:
        return Opaque(type(leaf).__name__)
