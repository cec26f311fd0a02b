"""`Comparison`: the frozen result of `compare`, and `Isolation`, how its candidates were kept apart.

Result types only: this module imports no engine, so the store and the renderers can read a
comparison without pulling in the sampler or the worker processes.
"""

from __future__ import annotations

import dataclasses
import functools
from typing import Any

import numpy as np

from .._values import display
from .._values.findings import Finding
from .._values.documents import check_format
from .measurement import Measurement
from .._values.stats import Interval, paired_ratio_ci

FORMAT = "levelbench.comparison"
FORMAT_VERSION = 1

@dataclasses.dataclass(frozen=True)
class Agreement:
    """How far a candidate's output is from its reference's."""

    candidate: str
    reference: str
    ok: bool
    max_abs_error: float
    max_rel_error: float
    where: str
    detail: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


IN_PROCESS = "in-process"
WORKERS = "workers"


@dataclasses.dataclass(frozen=True)
class Isolation:
    """How the candidates were kept from slowing each other down, and what that showed.

    Thread pools of NumPy and PyTorch keep a core busy for a while after each call (see
    docs/design/isolation.md), so every block of samples starts only once no helper thread runs.

    Attributes:
        mode: ``"workers"`` (candidates in worker processes, by ``grouping``) or ``"in-process"``.
        grouping: ``"framework"`` (one worker per framework), ``"candidate"`` (one per candidate),
            or ``""`` in this process.
        workers: candidate -> the worker process (its index) that ran it.
        spin: candidate -> seconds its helper threads kept running after its calls had returned
            (measured once, after calibration): what it would add to whatever runs next.
        waited: seconds spent waiting for helper threads between blocks, in all.
        not_quiet: threads still running when the wait gave up (a busy background thread).
        wake_up: candidate -> median over blocks of (the block's first sample / the block's
            median) - 1: what waking its threads and caches costs; those first samples are discarded.
        back_to_back: in-process only: per round, one sample taken right after the previous
            candidate's block, without waiting, as plain interleaving would time it.
        pools: the thread pools loaded where the candidates ran.
        measured: False where thread states could not be read and a fixed gap was slept instead.
    """

    mode: str
    grouping: str = ""
    workers: dict[str, int] = dataclasses.field(default_factory=dict)
    spin: dict[str, float] = dataclasses.field(default_factory=dict)
    waited: float = 0.0
    not_quiet: tuple[str, ...] = ()
    wake_up: dict[str, float] = dataclasses.field(default_factory=dict)
    back_to_back: dict[str, tuple[float | None, ...]] = dataclasses.field(default_factory=dict)
    pools: tuple[str, ...] = ()
    measured: bool = True

    @property
    def n_workers(self) -> int:
        return len(set(self.workers.values()))

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        d["not_quiet"] = list(self.not_quiet)
        d["pools"] = list(self.pools)
        d["back_to_back"] = {n: list(r) for n, r in self.back_to_back.items()}
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Isolation":
        names = {f.name for f in dataclasses.fields(cls)}
        kw = {k: v for k, v in d.items() if k in names}
        kw["not_quiet"] = tuple(kw.get("not_quiet", ()))
        kw["pools"] = tuple(kw.get("pools", ()))
        kw["back_to_back"] = {n: tuple(r) for n, r in kw.get("back_to_back", {}).items()}
        return cls(**kw)


@dataclasses.dataclass(frozen=True)
class LanePeak:
    """What a NumPy GEMM of size ``n`` reached in the same rounds as the candidates (the comparison's
    GEMM lane): ``rate`` is FLOP/s, its estimate from the median sample with the median's 95% CI."""

    dtype: str
    n: int
    rate: Interval
    samples: int

    def to_dict(self) -> dict[str, Any]:
        return {"dtype": self.dtype, "n": self.n, "rate": self.rate.to_dict(), "samples": self.samples}

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "LanePeak":
        return cls(d["dtype"], int(d["n"]), Interval.from_dict(d["rate"]), int(d["samples"]))


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The result of `compare`: measurements, ratios to the baseline, findings, environment.

    ``rounds[name]`` holds one time per interleaved round (the median of that round's block of
    samples); ratios pair rounds, so drift that hits every candidate alike cancels out.

    ``partial`` is empty for a comparison that ran to its end; otherwise it says what cut it short
    (``levelbench run``'s ``--timeout``), and the figures are from the rounds measured before that.
    ``stopped_early`` is empty unless the rounds stopped before the budget asked, because another
    round might not have ended before the timeout: the comparison is whole (the timeout never came),
    only shorter; it says how long the timing ran.

    ``peak_flops`` is what "% of peak" is a share of, per dtype: where the comparison ran a GEMM lane
    (``lane_peaks``, in worker processes), the rate that GEMM reached in the same rounds (or a candidate's,
    where one went past it); otherwise the machine's cached practical peak.
    """

    baseline: str
    measurements: dict[str, Measurement]
    rounds: dict[str, tuple[float | None, ...]]
    agreements: tuple[Agreement, ...] = ()
    findings: tuple[Finding, ...] = ()
    peak_flops: dict[str, float] = dataclasses.field(default_factory=dict)
    theoretical_flops: dict[str, float] = dataclasses.field(default_factory=dict)
    peak_note: str = ""
    notes: dict[str, str] = dataclasses.field(default_factory=dict)
    groups: dict[str, str] = dataclasses.field(default_factory=dict)
    environment: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    title: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    target_reached: bool = False
    rel_ci_target: float = 0.02
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)
    failed: dict[str, str] = dataclasses.field(default_factory=dict)
    isolation: Isolation | None = None
    partial: str = ""
    stopped_early: str = ""
    lane_peaks: dict[str, LanePeak] = dataclasses.field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return list(self.measurements)

    def ratio(self, name: str, baseline: str | None = None) -> Interval:
        """``time(name) / time(baseline)`` with a 95% paired-bootstrap CI over interleaved rounds."""
        base = self._known(name, baseline)
        pairs = [(a, b) for a, b in zip(self.rounds[name], self.rounds[base]) if a is not None and b is not None]
        if not pairs:
            m, b = self.measurements[name], self.measurements[base]
            return Interval(m.median / b.median, m.ci.lower / b.ci.upper, m.ci.upper / b.ci.lower)
        a, b = zip(*pairs)
        if name == base:
            # Against itself every resampled ratio equals the estimate (1, or NaN for a zero median), so the
            # bootstrap is skipped: its time and memory grow with the rounds (1,000,000 of an imported file).
            estimate = float(np.median(a) / np.median(b))
            return Interval(estimate, estimate, estimate)
        return paired_ratio_ci(a, b)

    def back_to_back_ratio(self, name: str, baseline: str | None = None) -> Interval | None:
        """The ratio plain in-process interleaving would report (no waiting between candidates), if measured."""
        base = self._known(name, baseline)
        b2b = self.isolation.back_to_back if self.isolation else {}
        pairs = [(a, b) for a, b in zip(b2b.get(name, ()), b2b.get(base, ())) if a is not None and b is not None]
        if len(pairs) < 3:
            return None
        a, b = zip(*pairs)
        return paired_ratio_ci(a, b)

    def _known(self, name: str, baseline: str | None) -> str:
        base = baseline or self.baseline
        for n in (name, base):
            if n not in self.measurements:
                raise KeyError(f"no candidate named {n!r}; the candidates are {self.names}")
        return base

    @functools.cached_property
    def ratios(self) -> dict[str, Interval]:
        return {n: self.ratio(n) for n in self.names}

    def verdict(self, name: str, baseline: str | None = None) -> str:
        """``"faster"``, ``"slower"`` or ``"indistinguishable"`` than the baseline, at 95%."""
        r = self.ratio(name, baseline) if baseline else self.ratios[name]
        if name == (baseline or self.baseline):
            return "baseline"
        if r.upper < 1:
            return "faster"
        if r.lower > 1:
            return "slower"
        return "indistinguishable"

    def gflops(self, name: str) -> float | None:
        return self.measurements[name].gflops

    def peak_share(self, name: str) -> float | None:
        """The candidate's FLOP/s as a share of ``peak_flops`` (the GEMM lane's rate in this run, else the
        practical peak; either raised by any candidate above it, so at most 1); None where it is above the
        theoretical peak (LB303: not real work) or unknown."""
        m = self.measurements[name]
        peak = self.peak_flops.get(m.precision)
        if not (m.flops and peak and m.median):
            return None
        rate = m.flops / m.median
        bound = self.theoretical_flops.get(m.precision)
        if bound and rate > bound:
            return None
        return min(rate / peak, 1.0)

    @property
    def peak_label(self) -> str:
        """What "% of peak" is a share of, as a column heading: the run's GEMM lane or the practical peak."""
        return "% peak (this run)" if self.lane_peaks else "% practical peak"

    def findings_for(self, name: str) -> list[Finding]:
        own = [f for f in self.findings if f.subject == name]
        return own + list(self.measurements[name].findings)

    # -- serialisation -------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "title": self.title,
            "params": self.params,
            "baseline": self.baseline,
            "measurements": {n: m.to_dict() for n, m in self.measurements.items()},
            "rounds": {n: list(r) for n, r in self.rounds.items()},
            "agreements": [a.to_dict() for a in self.agreements],
            "findings": [f.to_dict() for f in self.findings],
            "peak_flops": self.peak_flops,
            "theoretical_flops": self.theoretical_flops,
            "peak_note": self.peak_note,
            "notes": self.notes,
            "groups": self.groups,
            "environment": self.environment,
            "target_reached": self.target_reached,
            "rel_ci_target": self.rel_ci_target,
            "skipped": self.skipped,
            "failed": self.failed,
            "isolation": self.isolation.to_dict() if self.isolation else None,
            "partial": self.partial,
            "stopped_early": self.stopped_early,
            "lane_peaks": {d: p.to_dict() for d, p in self.lane_peaks.items()},
            "ratios": {n: r.to_dict() for n, r in self.ratios.items()},
            "verdicts": {n: self.verdict(n) for n in self.names},
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Comparison":
        check_format(d, FORMAT, FORMAT_VERSION, "comparison")
        return cls(
            baseline=d["baseline"],
            measurements={n: Measurement.from_dict(m) for n, m in d["measurements"].items()},
            rounds={n: tuple(r) for n, r in d["rounds"].items()},
            agreements=tuple(Agreement(**a) for a in d.get("agreements", ())),
            findings=tuple(Finding.from_dict(f) for f in d.get("findings", ())),
            peak_flops=d.get("peak_flops", {}),
            theoretical_flops=d.get("theoretical_flops", {}),
            peak_note=d.get("peak_note", ""),
            notes=d.get("notes", {}),
            groups=d.get("groups", {}),
            environment=d.get("environment", {}),
            title=d.get("title", ""),
            params=d.get("params", {}),
            target_reached=d.get("target_reached", False),
            rel_ci_target=d.get("rel_ci_target", 0.02),
            skipped=d.get("skipped", {}),
            failed=d.get("failed", {}),
            isolation=Isolation.from_dict(d["isolation"]) if d.get("isolation") else None,
            partial=d.get("partial", ""),
            stopped_early=d.get("stopped_early", ""),
            lane_peaks={k: LanePeak.from_dict(p) for k, p in d.get("lane_peaks", {}).items()},
        )

    def __rich__(self) -> Any:
        return display.renderable(self)

    def __str__(self) -> str:
        return display.text(self)