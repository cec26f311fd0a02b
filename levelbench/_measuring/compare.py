"""`compare`: several implementations of one computation, checked equal, then timed interleaved.

Four phases, whatever process each candidate runs in (a `Lane` in this process, or in a worker
process of its own):

1. inputs: array arguments must match the baseline's in shape, dtype and device;
2. first calls: each candidate runs once (compiling first, timed apart) and its output must
   agree with its group's reference;
3. interleaving: each candidate calibrated, then rounds of one block of samples per candidate,
   waiting before each block until no helper thread runs, until every ratio's CI is tight;
4. work: FLOPs, share of the machine's peak, and what the timing itself showed (candidates
   faster than physics allows, different work, candidates slowing each other down).
"""

from __future__ import annotations

import dataclasses
import math
import statistics
import time
from collections.abc import Callable, Mapping
from typing import Any, Protocol

import numpy as np

from .candidate import Builder, Candidate, coerce
from .._results.comparison import IN_PROCESS, WORKERS, Comparison, Isolation
from .._values.arguments import flag, function, got, number, text
from .._values.errors import InputError, InputTypeError
from .._values.findings import Finding, Severity
from .._values.settings import COMPARING, MEASURING
from .lanes import Block, Calibration, FirstCall, LaneInfo, LocalLane
from .._results.measurement import Measurement
from .._results.comparison import Agreement
from .parity import ComparisonError, compare_leaves, mismatches_of_leaves
from .checks import interference_finding, work_findings
from .environment import cpu_times, load_average, steal_record
from .threads import QuietWait, pools, wait_until_quiet
from .._values.gc import gc_paused
from .peak import GEMM_LANE, cached_peak, gemm_lane, machine_peak, raise_peak
from .sampler import Options
from .stopping import Stop, after_round
from .._results.comparison import LanePeak
from .._values.stats import Interval, median_ci
from .._values.settings import RUNNING
from .._values.targets import check_target
from .environment import collect, theoretical_peak
from .workers import DeadlineExceeded, WorkerDied, WorkerError, Workers

__all__ = ["Builder", "Candidate", "Comparison", "compare"]

class Lane(Protocol):
    """Where one candidate's calls run: `LocalLane` (this process) or `WorkerLane` (a worker)."""

    info: LaneInfo

    def first_call(self) -> FirstCall: ...

    def calibrate(self) -> Calibration: ...

    def block(self, samples: int, warmup: int = 0) -> Block: ...

    def loose_sample(self) -> float | None: ...

    def finish(self, *, target_reached: bool, count_flops: bool = True, environment: dict[str, Any] | None = None,
               extra_findings: str | None = None) -> tuple[Measurement, tuple[Finding, ...]]: ...

    def close(self) -> None: ...


@dataclasses.dataclass(frozen=True)
class Settings:
    """What `compare`'s keyword arguments ask for, in one value passed through the phases."""

    strict: bool = True
    check_outputs: bool = True
    rtol: float | None = None
    atol: float = 0.0
    budget: float = COMPARING.budget
    rel_ci: float = COMPARING.rel_ci
    target_sample_time: float = MEASURING.target_sample_time
    min_rounds: int = COMPARING.min_rounds
    count_flops: bool = True
    peak: bool = True
    environment: bool = True
    timer: Callable[[], float] = time.perf_counter
    peak_lane: bool = True

    def options(self) -> Options:
        return Options(budget=self.budget, target_sample_time=self.target_sample_time, rel_ci=self.rel_ci,
                       min_samples=self.min_rounds)


def compare(
    candidates: Mapping[str, Any],
    *,
    baseline: str | None = None,
    strict: bool = True,
    check_outputs: bool = True,
    rtol: float | None = None,
    atol: float = 0.0,
    budget: float = COMPARING.budget,
    rel_ci: float = COMPARING.rel_ci,
    target_sample_time: float = MEASURING.target_sample_time,
    min_rounds: int = COMPARING.min_rounds,
    count_flops: bool = True,
    peak: bool = True,
    title: str = "",
    params: dict[str, Any] | None = None,
    timer: Callable[[], float] = time.perf_counter,
    environment: bool = True,
    progress: Callable[[str, float], None] | None = None,
    isolate: bool | None = None,
    timeout: float | None = None,
    peak_lane: bool = True,
) -> Comparison:
    """Check that candidates take the same inputs and agree on outputs, then time them interleaved.

    ``candidates`` maps names to ``(fn, args)``, ``(fn, args, kwargs)``, a callable, a
    `Candidate`, or a builder: ``"FILE.py:NAME"`` / ``"module:function"`` / `Builder`, a function
    that returns one of the others. ``baseline`` (default: the first) is what ratios are relative to.

    1. Input parity: array arguments' shapes, dtypes and devices must match the baseline's.
    2. Each candidate's first call (and, for jitted JAX, its compile) is timed; outputs are
       converted to NumPy and compared with dtype-aware, normwise tolerances (``rtol``/``atol``
       override): ``max|out - ref| <= atol + rtol * max|ref|``.
       With ``strict`` (default) a mismatch raises `ComparisonError`; otherwise it is recorded.
    3. FLOPs per call (declared, XLA cost analysis, or PyTorch's counter) give GFLOP/s and the
       share of the machine's measured peak; a candidate faster than the peak allows for its
       group's work, or doing >10% different work than the baseline, is flagged.
    4. Each candidate is calibrated alone, then sampled in rounds, one block of samples per
       candidate (A B C A B C ...), until every ratio's 95% CI (paired bootstrap over rounds) is
       within ``rel_ci`` or ``budget`` seconds end. Before each block levelbench waits until no
       helper thread runs: NumPy's and PyTorch's thread pools keep a core busy for up to ~0.1 s
       after a call, which would slow whatever runs next.

    Isolation: with ``isolate=True`` every candidate must be a builder, and each runs in a
    worker process of its own, as if alone on the machine (``timeout`` bounds the whole
    comparison); ``isolate=None`` (default) does so when every candidate is a builder. Isolated, with
    ``peak`` and ``count_flops``, a NumPy GEMM is timed in a worker of its own in every round beside the
    candidates (``peak_lane=False``: not), and "% of peak" is a share of what it reached in the same
    minutes (`Comparison.lane_peaks`; docs/guide/peak.md). In this
    process, candidates of several frameworks share one process's thread pools: levelbench
    also times each candidate right after the previous one, without waiting, and reports how
    far that plain interleaving would be off (LB305).

    Example:
        >>> import numpy as np, levelbench
        >>> a = np.ones((300, 300), np.float32)
        >>> c = levelbench.compare({"dot": (np.dot, (a, a)), "matmul": (np.matmul, (a, a))}, budget=1)
        >>> c.verdict("matmul") in ("faster", "slower", "indistinguishable")
        True
    """
    _check_candidates(candidates, baseline)
    specs = {name: coerce(name, spec) for name, spec in candidates.items()}
    base = baseline or next(iter(specs))
    isolated = _isolated(specs, isolate)
    settings = Settings(strict, check_outputs, rtol, atol, budget, rel_ci, target_sample_time, min_rounds,
                        count_flops, peak, environment, timer, peak_lane)
    check_settings(settings, "compare")
    _check_call(title, params, progress, isolate, timeout)
    if isolated:
        for spec in specs.values():
            check_target(spec.target)  # type: ignore[union-attr]
        try:
            with Workers(deadline=None if timeout is None else time.monotonic() + timeout) as workers:
                lanes = workers.builders(specs, settings.options(), progress)
                result = run_comparison(lanes, base, settings, title=title, params=params, progress=progress,
                                        workers=workers, grouping="candidate")
        except DeadlineExceeded:
            result = None
        if result is None or result.partial:
            error = TimeoutError(f"compare: the candidates' worker processes did not finish within timeout={timeout:g} s; "
                                 "they were stopped (raise timeout=, or look for a candidate that hangs)"
                                 + ("; what was measured before it is this error's .comparison" if result else ""))
            error.comparison = result  # type: ignore[attr-defined]
            raise error
    else:
        local = {n: s.build(n) if isinstance(s, Builder) else s for n, s in specs.items()}
        lanes = {n: LocalLane(n, c, settings.options(), timer) for n, c in local.items()}
        result = run_comparison(lanes, base, settings, title=title, params=params, progress=progress)
    return result


def _check_candidates(candidates: Any, baseline: Any) -> None:
    if not isinstance(candidates, Mapping):
        raise InputTypeError(
            f"compare: candidates must be a dict of name -> candidate, e.g. {{'numpy': (np.dot, (a, b)), "
            f"'jax': (jnp.dot, (x, y))}}, got {got(candidates)}"
            + ("; for a list of (name, candidate) pairs, pass dict(pairs)" if isinstance(candidates, (list, tuple))
               else ""))
    if not candidates:
        raise InputError("compare: candidates must hold at least one candidate, got an empty dict")
    for name in candidates:
        if not isinstance(name, str) or not name:
            raise InputTypeError(f"compare: candidate names must be non-empty strings, got {got(name)}; "
                                 "name each candidate, e.g. {'numpy': ..., 'jax': ...}")
    if baseline is not None and baseline not in candidates:
        raise InputError(f"compare: baseline {baseline!r} is not a candidate; the candidates are "
                         f"{list(candidates)} (baseline= names the one ratios are relative to)")


def check_settings(s: Settings, where: str) -> None:
    """Every setting's type and range, before anything runs, named as ``compare`` takes them."""
    flag(where, "strict", s.strict)
    flag(where, "check_outputs", s.check_outputs)
    number(where, "rtol", s.rtol, "None (dtype-aware default) or a relative tolerance >= 0, e.g. 1e-5", low=0,
           optional=True)
    number(where, "atol", s.atol, "an absolute tolerance >= 0, e.g. 1e-8", low=0)
    number(where, "budget", s.budget, "a number of seconds >= 0", low=0, finite=False)
    number(where, "rel_ci", s.rel_ci, "a fraction in (0, 1), e.g. 0.02 for +-2%", low=0, low_open=True, high=1,
           high_open=True)
    number(where, "target_sample_time", s.target_sample_time, "a number of seconds > 0", low=0, low_open=True)
    number(where, "min_rounds", s.min_rounds, "an integer >= 1", low=1, integer=True)
    flag(where, "count_flops", s.count_flops)
    flag(where, "peak", s.peak)
    flag(where, "environment", s.environment)
    flag(where, "peak_lane", s.peak_lane)
    function(where, "timer", s.timer, "e.g. time.perf_counter")


def _check_call(title: Any, params: Any, progress: Any, isolate: Any, timeout: Any) -> None:
    where = "compare"
    text(where, "title", title)
    if params is not None and not isinstance(params, Mapping):
        raise InputTypeError(f"compare: params must be a dict of name -> value (or None), got {got(params)}")
    function(where, "progress", progress, optional=True)
    flag(where, "isolate", isolate, optional=True)
    number(where, "timeout", timeout, "None or a number of seconds > 0", low=0, low_open=True, optional=True)


def _isolated(specs: Mapping[str, Candidate | Builder], isolate: bool | None) -> bool:
    builders = [n for n, s in specs.items() if isinstance(s, Builder)]
    if isolate is None:
        return len(builders) == len(specs)
    if isolate and len(builders) < len(specs):
        plain = [n for n in specs if n not in builders]
        raise ValueError(
            f"isolate=True runs each candidate in a worker process, which must build it itself: "
            f"{', '.join(map(repr, plain))} {'is a' if len(plain) == 1 else 'are'} plain callable(s). "
            "Give each as a builder instead, 'FILE.py:NAME' or 'module:function' (a function returning "
            "(fn, args)), or pass isolate=False to time them in this process"
        )
    return bool(isolate)


def run_comparison(lanes: Mapping[str, Lane], base: str, settings: Settings, *, title: str = "",
                   params: dict[str, Any] | None = None, progress: Callable[[str, float], None] | None = None,
                   workers: Any = None, grouping: str = "", extra_findings: str | None = None,
                   skipped: dict[str, str] | None = None) -> Comparison:
    """The four phases over ready lanes (in this process, or in ``workers``); see the module docstring.

    ``extra_findings`` names a function (``"module:function"``) each lane calls after timing, in
    its own process, for findings to add (`levelbench run` diagnoses JAX candidates this way)."""
    run = _Run(dict(lanes), base, settings, progress or (lambda stage, fraction: None), workers)
    try:
        run.check_inputs()
        run.gemm = _gemm_lanes(workers, run.infos.values(), settings)
        agreements = run.first_calls()
        timing = run.interleave()
        measurements, extra = run.finish(timing.reached, extra_findings)
    finally:
        for lane in [*lanes.values(), *run.gemm.values()]:
            lane.close()
    partial = ""
    if run.timed_out:
        if not measurements:
            raise DeadlineExceeded(f"{run.timed_out}, before any candidate had a block of samples")
        partial = f"{run.timed_out}; the figures are from the rounds before it"
        stopped = [n for n in run.stopped if n in measurements]
        if stopped:
            partial += "; " + ", ".join(stopped) + " stopped there, kept with " + ", ".join(
                f"{sum(r is not None for r in timing.rounds[n])} round(s)" for n in stopped)
        if base not in measurements:
            partial += f"; ratios are to {next(iter(measurements))}, since the baseline {base} was stopped"
            base = next(iter(measurements))
        run.base = base
    infos = {n: info for n, info in run.infos.items() if n in measurements}
    lane_peaks = run.lane_peaks()
    bounds = _bounds() if settings.peak else {}
    findings = run.findings + list(extra)
    findings += work_findings({n: i.group for n, i in infos.items()}, measurements, base, bounds)
    peaks, peak_note = _peaks_of_run(measurements, lane_peaks, findings) if settings.peak else ({}, "")
    isolation = Isolation(
        mode=WORKERS if workers is not None else IN_PROCESS, grouping=grouping,
        workers={n: i for n, i in run.worker_index.items() if n in run.lanes or n in measurements},
        spin=timing.spin, waited=timing.waited, not_quiet=timing.not_quiet, wake_up=timing.wake_up,
        back_to_back={n: tuple(r) for n, r in timing.back_to_back.items()},
        pools=tuple(pools()) if workers is None else (), measured=timing.measured,
    )
    result = Comparison(
        baseline=base,
        measurements=measurements,
        rounds={n: tuple(timing.rounds[n]) for n in measurements},
        agreements=tuple(agreements),
        findings=tuple(findings),
        peak_flops=peaks,
        theoretical_flops=bounds,
        peak_note=peak_note,
        notes={n: i.note for n, i in infos.items() if i.note},
        groups={n: i.group for n, i in infos.items()},
        environment=run.environment or _with_start_load(measurements[base].environment, run.load_at_start, run.cpu_at_start),
        title=title,
        params=dict(params or {}),
        target_reached=timing.reached,
        rel_ci_target=settings.rel_ci,
        skipped=dict(skipped or {}),
        failed=run.failed,
        isolation=isolation,
        partial=partial,
        lane_peaks=lane_peaks,
        stopped_early="" if partial else run.stopped_early + (
            "; not diagnosed" if run.stopped_early and extra_findings and any(
                i.framework == "jax" for i in infos.values()) else ""),
    )
    interference = interference_finding(result)
    if interference is not None:
        result = dataclasses.replace(result, findings=result.findings + (interference,))
    run.progress("done", 1.0)
    return result


@dataclasses.dataclass
class _Timing:
    rounds: dict[str, list[float | None]]
    back_to_back: dict[str, list[float | None]]
    spin: dict[str, float]
    wake_up: dict[str, float]
    waited: float = 0.0
    not_quiet: tuple[str, ...] = ()
    reached: bool = False
    measured: bool = True


class _Run:
    """One comparison's state while its phases run; lanes of a dead worker drop out as failed."""

    def __init__(self, lanes: dict[str, Lane], base: str, settings: Settings,
                 progress: Callable[[str, float], None], workers: Any) -> None:
        self.lanes, self.base, self.s, self.progress, self.workers = lanes, base, settings, progress, workers
        self.findings: list[Finding] = []
        self.failed: dict[str, str] = {}
        self.environment: dict[str, Any] = {}
        self.timed_out = ""  # what the deadline interrupted; the comparison is then partial
        self.stopped_early = ""  # why the rounds stopped short of the budget, the deadline being near
        self.sampled: set[str] = set()  # lanes with at least one kept round
        self.infos = {n: lane.info for n, lane in lanes.items()}  # kept when a lane drops out
        self.worker_index = {n: lane.worker.index for n, lane in lanes.items()} if workers is not None else {}
        self.firsts: dict[str, FirstCall] = {}
        self.calibrations: dict[str, Calibration] = {}
        self.kept: dict[str, list[float]] = {n: [] for n in lanes}  # every kept sample, as it came
        self.discarded: dict[str, int] = {n: 0 for n in lanes}
        self.stopped: dict[str, str] = {}  # lanes whose worker the timeout stopped: what it was doing
        self.load_at_start = load_average() if settings.environment else None
        self.cpu_at_start = cpu_times() if settings.environment else None
        self.gemm: dict[str, Lane] = {}  # the GEMM lane per dtype (`_gemm_lanes`): timed in every round
        self.gemm_samples: dict[str, list[float]] = {}

    # -- failures ------------------------------------------------------------------------------
    def problem(self, code: str, subject: str, title: str, evidence: str, fix: str) -> None:
        if self.s.strict:
            raise ComparisonError(f"{title}\n  {evidence}\n  fix: {fix}" if evidence else f"{title}\n  fix: {fix}")
        self.findings.append(Finding(code, title, Severity.ERROR, evidence=evidence, fix=fix, subject=subject))

    def _step(self, name: str, step: Callable[[Lane], Any], what: str = "") -> Any:
        """Run one step of one lane; in a worker, a failure drops the lane (or the worker's lanes),
        and the deadline passing ends the comparison with what was measured before it."""
        if name not in self.lanes:  # dropped earlier in this phase, with its worker
            return None
        if self.workers is None:
            return step(self.lanes[name])

        try:
            return step(self.lanes[name])
        except DeadlineExceeded:
            self._time_out(name, what)
            return None
        except WorkerError as e:
            lost = [name]
            if isinstance(e, WorkerDied):
                worker = self.lanes[name].worker  # type: ignore[attr-defined]
                lost = [n for n, lane in self.lanes.items() if lane.worker is worker]  # type: ignore[attr-defined]
            for n in lost:
                self.failed[n] = str(e) if n == name else f"its worker died while running {name!r}: {e}"
                del self.lanes[n]
            if self.base in lost:
                raise ComparisonError(f"the baseline {self.base!r} failed: {e}") from None
            return None

    def _time_out(self, name: str, what: str) -> None:
        """The deadline passed while ``name``'s worker ran ``what``: that worker is stopped and its
        candidates dropped; the others get `RUNNING.finish_grace` seconds to hand over their samples."""
        worker = self.lanes[name].worker  # type: ignore[attr-defined]
        worker.stop(graceful=False)
        lost = [n for n, lane in self.lanes.items() if lane.worker is worker]  # type: ignore[attr-defined]
        for n in lost:
            self.failed[n] = (f"timed out: no answer to its {what} before the timeout; its worker was stopped"
                              if n == name else f"timed out: its worker was stopped while {name!r} ran its {what}")
            self.stopped[n] = what if n == name else f"worker ({name!r} ran its {what})"
            del self.lanes[n]
        if not self.timed_out:
            self.timed_out = f"the timeout came during {name}'s {what}"
        self._extend_deadlines()

    def _extend_deadlines(self) -> None:
        grace = time.monotonic() + RUNNING.finish_grace
        for lane in self.lanes.values():
            lane.deadline = grace  # type: ignore[attr-defined]

    @property
    def pids(self) -> list[int]:
        import os

        return self.workers.pids if self.workers is not None else [os.getpid()]

    # -- phase 1 -------------------------------------------------------------------------------
    def check_inputs(self) -> None:
        leaves = {n: list(lane.info.inputs) for n, lane in self.lanes.items()}
        mismatches = mismatches_of_leaves(leaves, self.base)
        fix = ("build every candidate's inputs from the same arrays, e.g. x_np = np.asarray(x_jax); "
               "x_torch = torch.from_numpy(x_np)")
        if mismatches and self.s.strict:
            raise ComparisonError("different inputs:\n" + "\n".join(f"  {m}" for m in mismatches)
                                  + f"\n  fix: {fix} (or strict=False to record this and time anyway)")
        for mismatch in mismatches:
            self.problem("LB301", mismatch.split(":", 1)[0], f"different inputs: {mismatch}", "", fix)

    # -- phase 2 -------------------------------------------------------------------------------
    def first_calls(self) -> list[Agreement]:
        firsts = self.firsts
        for i, name in enumerate(list(self.lanes)):
            self.progress(f"first call: {name}", i / len(self.lanes))
            first = self._step(name, lambda lane: lane.first_call(), "first call")
            if self.timed_out:
                return []
            if first is not None:
                firsts[name] = first
        self._gemm_steps(lambda lane: lane.first_call())
        agreements = []
        if not self.s.check_outputs:
            return agreements
        references: dict[str, str] = {}
        for name in [n for n in self.lanes if n in firsts]:
            ref = references.setdefault(self.lanes[name].info.group, name)
            if ref == name:
                continue
            a = compare_leaves(name, firsts[name].outputs, ref, firsts[ref].outputs, self.s.rtol, self.s.atol)
            agreements.append(a)
            if not a.ok:
                self.problem(
                    "LB302", name, f"not the same computation: {name} disagrees with {ref}",
                    a.detail if np.isinf(a.max_abs_error) else
                    f"max abs error {a.max_abs_error:.3g} at {a.where}, max rel error {a.max_rel_error:.3g}; {a.detail}",
                    "make both compute the same thing (same formula, same normalisation axis, same dtype), "
                    "or pass rtol=/atol= if the difference is expected rounding",
                )
        return agreements

    # -- phase 3 -------------------------------------------------------------------------------
    def interleave(self) -> _Timing:
        s = self.s
        apart = len(self.lanes) > 1  # one candidate has nothing to wait for
        in_process = self.workers is None
        timing = _Timing({n: [] for n in self.lanes}, {n: [] for n in self.lanes}, {}, {})
        if self.timed_out:  # during the first calls: nothing more is asked of anyone
            return timing
        waits: list[QuietWait] = []

        def quiet() -> QuietWait:
            w = wait_until_quiet(self.pids, exclude_caller=in_process)
            waits.append(w)
            return w

        calibrations = self.calibrations
        for i, name in enumerate(list(self.lanes)):
            self.progress(f"calibrating: {name}", i / len(self.lanes))
            if apart:
                quiet()
            cal = self._step(name, lambda lane: lane.calibrate(), "calibration")
            if self.timed_out:
                return timing
            if cal is None:
                continue
            calibrations[name] = cal
            if apart:
                timing.spin[name] = quiet().seconds
        plan = {n: _block_plan(c) for n, c in calibrations.items()}
        gemm_plan = {d: _gemm_plan(c) for d, c in self._gemm_steps(lambda lane: lane.calibrate()).items()}
        wake: dict[str, list[float]] = {n: [] for n in self.lanes}
        start = s.timer()
        deadline = getattr(self.workers, "deadline", None)
        with gc_paused(collect=True):
            while True:
                round_started = time.monotonic()
                for name in list(self.lanes):
                    samples, warmup = plan[name]
                    if apart and in_process and calibrations[name].sample_seconds < COMPARING.loose_below:
                        timing.back_to_back[name].append(self._step(name, lambda lane: lane.loose_sample(),
                                                                    "back-to-back sample"))
                    if apart:
                        quiet()
                    block = self._step(name, lambda lane: lane.block(samples, warmup), "block of samples")
                    if self.timed_out:
                        break
                    if block is None:
                        continue
                    timing.rounds[name].append(block.median)
                    self.kept[name] += [t for t in block.samples if t is not None]
                    self.discarded[name] += sum(t is None for t in block.samples)
                    if block.median is not None:
                        self.sampled.add(name)
                    if block.warmup and block.warmup[0] and block.median:
                        wake[name].append(block.warmup[0] / block.median - 1)
                if self.timed_out:
                    break
                for dtype, gemm_block in self._gemm_steps(lambda lane: lane.block(*gemm_plan[lane.dtype]),
                                                          quiet).items():
                    self.gemm_samples.setdefault(dtype, []).extend(t for t in gemm_block.samples if t is not None)
                n_rounds = len(timing.rounds[self.base])
                elapsed = s.timer() - start
                self.progress("timing", min(elapsed / s.budget, 1.0) if s.budget else 1.0)
                now = time.monotonic()
                stop = after_round({n: timing.rounds[n] for n in self.lanes}, self.base, elapsed=elapsed,
                                   budget=s.budget, min_rounds=s.min_rounds, rel_ci=s.rel_ci,
                                   deadline_left=None if deadline is None else deadline - now,
                                   round_seconds=now - round_started)
                if stop is Stop.DEADLINE:
                    # The timeout has not come, so this is a whole comparison, only a shorter one.
                    spent = (f"{elapsed:.2g} s of the {s.budget:g} s budget, {n_rounds} round(s)" if elapsed < s.budget
                             else f"{elapsed:.2g} s, {n_rounds} of the {s.min_rounds} rounds asked")
                    self.stopped_early = (f"stopped early, after {spent}: another round might not have ended "
                                          "before the timeout")
                    self._extend_deadlines()
                if stop is not None:
                    timing.reached = stop is Stop.REACHED
                    break
        timing.waited = sum(w.seconds for w in waits)
        timing.not_quiet = tuple(sorted({t for w in waits for t in w.running}))
        timing.measured = all(w.measured for w in waits)
        timing.wake_up = {n: statistics.median(v) for n, v in wake.items() if v}
        timing.back_to_back = {n: r for n, r in timing.back_to_back.items() if r and n in self.lanes}
        return timing

    # -- the GEMM lane -------------------------------------------------------------------------
    def _gemm_steps(self, step: Callable[[Any], Any], before: Callable[[], Any] | None = None) -> dict[str, Any]:
        """``step`` on each GEMM lane, by dtype; a lane whose worker fails or misses the deadline is dropped
        (the comparison then falls back on the practical peak for that dtype), never the comparison."""

        done = {}
        for dtype, lane in list(self.gemm.items()):
            if before is not None:
                before()
            try:
                done[dtype] = step(lane)
            except (WorkerError, DeadlineExceeded):
                lane.worker.stop(graceful=False)  # type: ignore[attr-defined]
                del self.gemm[dtype]
                self.gemm_samples.pop(dtype, None)
        return done

    def lane_peaks(self) -> dict[str, LanePeak]:
        """What each GEMM lane reached over its samples: FLOP/s from the median sample, with its CI."""
        peaks = {}
        for dtype, samples in self.gemm_samples.items():
            if dtype not in self.gemm or len(samples) < 3:
                continue
            flops = self.gemm[dtype].info.flops or 0.0
            ci = median_ci(samples)
            rate = Interval(flops / ci.estimate, flops / ci.upper, flops / ci.lower)
            peaks[dtype] = LanePeak(dtype, _lane_size(dtype), rate, len(samples))
        return peaks

    # -- phase 4 -------------------------------------------------------------------------------
    def finish(self, reached: bool, extra_findings: str | None) -> tuple[dict[str, Measurement], list[Finding]]:
        if self.workers is None and self.s.environment:
            self.environment = collect(self.load_at_start, self.cpu_at_start)
        env = self.environment if self.workers is None else None
        measurements: dict[str, Measurement] = {}
        extra: list[Finding] = []
        for i, name in enumerate(list(self.lanes)):
            if self.timed_out or self.stopped_early:
                extra_findings = None  # what was measured is kept; diagnosing it would spend the grace
                if name not in self.sampled:
                    self.failed[name] = "not timed: the timeout came before its first block of samples"
                    continue
            self.progress(f"diagnosing: {name}" if extra_findings else f"finishing: {name}", i / len(self.lanes))
            done = self._step(name, lambda lane: lane.finish(target_reached=reached, count_flops=self.s.count_flops,
                                                             environment=env, extra_findings=extra_findings),
                              "diagnosis" if extra_findings else "summary")
            if done is not None:
                measurements[name], own = done
                extra += own
        for name in self.stopped:
            kept = self._kept_before_stop(name, reached)
            if kept is not None:
                measurements[name] = kept
                del self.failed[name]
        measurements = {n: measurements[n] for n in self.infos if n in measurements}  # the candidates' order
        if not self.s.environment:
            measurements = {n: dataclasses.replace(m, environment={}) for n, m in measurements.items()}
        return measurements, extra

    def _kept_before_stop(self, name: str, reached: bool) -> Measurement | None:
        """What the parent holds of a candidate the timeout stopped mid-way: the samples of its
        blocks before, its first call and calibration; None when it had no block of samples."""
        first, cal, kept = self.firsts.get(name), self.calibrations.get(name), self.kept.get(name)
        if first is None or cal is None or not kept:
            return None
        info = self.infos[name]
        return Measurement(label=name, framework=first.framework, samples=tuple(kept), calls_per_sample=cal.number,
                           first_call=first.seconds, compile=first.compile,
                           compile_in_first_call=first.compile_in_first_call,
                           discarded_samples=self.discarded[name], target_reached=False,
                           rel_ci_target=self.s.rel_ci, flops=info.flops)


def _with_start_load(environment: dict[str, Any], load_at_start: list[float] | None,
                     cpu_at_start: dict[str, int] | None = None) -> dict[str, Any]:
    """A worker's environment (collected as its candidate finished) with the load when the comparison began
    and the CPU steal time over the whole comparison (/proc/stat is the machine's, whichever process reads it)."""
    if not environment:
        return environment
    if load_at_start:
        environment = {**environment, "load_average": {"start": load_at_start, **environment.get("load_average", {})}}
    steal = steal_record(cpu_at_start)
    return {**environment, "steal": steal} if steal else environment


def _gemm_lanes(workers: Any, infos: Any, settings: Settings) -> dict[str, Lane]:
    """A GEMM lane per dtype the candidates may run in (float32, and float64 where an input is float64),
    each in a worker of its own, timed in every round beside the candidates: "% of peak" is then a share of
    what the BLAS reached in the same minutes. Only for comparisons in worker processes that count FLOPs;
    a lane that cannot start is left out (the practical peak stands in)."""
    if workers is None or not (settings.peak and settings.count_flops and settings.peak_lane):
        return {}

    dtypes = ["float32"] + (["float64"] if any(leaf.info.dtype == "float64" for info in infos
                                               for leaf in info.inputs) else [])
    builders = {GEMM_LANE.format(dtype=d): Builder(f"{gemm_lane.__module__}:gemm_lane", {"n": _lane_size(d), "dtype": d})
                for d in dtypes}
    try:
        lanes = workers.builders(builders, settings.options())
    except (WorkerError, DeadlineExceeded):
        return {}
    for dtype, lane in zip(dtypes, lanes.values()):
        lane.dtype = dtype  # type: ignore[attr-defined]
    return dict(zip(dtypes, lanes.values()))


def _lane_size(dtype: str) -> int:
    n32, n64 = COMPARING.gemm_lane_n
    return n64 if dtype == "float64" else n32


def _gemm_plan(cal: Calibration) -> tuple[int, int]:
    """(samples, warm-up samples) of the GEMM lane's turn: short (`Comparing.gemm_lane_seconds`), >= 3 samples."""
    samples = max(3, round(COMPARING.gemm_lane_seconds / max(cal.sample_seconds, 1e-9)))
    return min(samples, COMPARING.max_block_samples), 1


def _block_plan(cal: Calibration) -> tuple[int, int]:
    """(samples per block, discarded warm-up samples) for a candidate whose samples take ``cal``."""
    seconds, c = max(cal.sample_seconds, 1e-9), COMPARING
    samples = max(c.min_block_samples, round(c.block_seconds / seconds))
    samples = max(1, min(samples, c.max_block_samples, math.floor(c.max_block_seconds / seconds)))
    return samples, min(max(1, math.ceil(c.warmup_seconds / seconds)), samples)


def _peaks() -> dict[str, float]:
    """The practical peak (what the BLAS reaches): what "% of peak" is a share of without a GEMM lane."""
    p = machine_peak()
    return {"float32": p.float32_flops, "float64": p.float64_flops}


def _bounds() -> dict[str, float]:
    """The theoretical peak's bound (physics): what LB303 holds a candidate to, never the practical peak."""

    return dict(theoretical_peak().bound_flops)


def _peaks_of_run(measurements: dict[str, Measurement], lane_peaks: dict[str, LanePeak],
                  findings: list[Finding]) -> tuple[dict[str, float], str]:
    """What "% of peak" is a share of, per dtype, and a note saying what was raised, once.

    Where a GEMM lane ran, the rate it reached in these rounds; for a dtype without one, the cached
    practical peak (measured on first use). A candidate above that figure (not one LB303 caught: its
    rate is not real work) replaces it, and any rate above the cached practical peak (a candidate's or
    the lane's) raises the cached one, which the note says."""
    impossible = {f.subject for f in findings if f.code == "LB303"}
    rates = {name: (m.precision, m.flops / m.median) for name, m in measurements.items()
             if m.flops and m.median and name not in impossible}
    peaks = {d: p.rate.estimate for d, p in lane_peaks.items()}
    missing = {dtype for dtype, _ in rates.values()} - set(peaks)
    if missing:
        practical = _peaks()
        peaks.update({d: practical[d] for d in missing})
    best: dict[str, tuple[float, str]] = {}
    for name, (dtype, rate) in rates.items():
        if rate > peaks[dtype] and rate > best.get(dtype, (0.0, ""))[0]:
            best[dtype] = (rate, name)
    beaten = {d: peaks[d] for d in best}
    peaks.update({d: rate for d, (rate, _) in best.items()})
    known = cached_peak()
    above = {d: r for d, r in peaks.items() if known is not None and r > known.for_dtype(d)}
    if above:
        source = ", ".join(best[d][1] if d in best else f"the GEMM lane ({d})" for d in above)
        raise_peak(above, f"a comparison: {source}")
    notes = []
    for dtype, (rate, name) in best.items():
        what = (f"the GEMM lane's {beaten[dtype] / 1e9:,.1f} in this run" if dtype in lane_peaks
                else f"the practical peak of {beaten[dtype] / 1e9:,.1f}")
        notes.append(f"{name} reached {rate / 1e9:,.1f} GFLOP/s {dtype}, above {what}")
    if above and not lane_peaks:
        return peaks, f"the practical peak was raised: {'; '.join(notes)}; that figure replaces the cached one"
    if above:
        notes.append("the cached practical peak was raised to " + ", ".join(
            f"{r / 1e9:,.1f} GFLOP/s {d}" for d, r in above.items()) + " (measured in this run)")
    return peaks, "; ".join(notes)
