"""`compare`: several implementations of one computation, checked equal, then timed interleaved."""

from __future__ import annotations

import dataclasses
import functools
import time
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from ._findings import Finding, Severity
from ._format import check_format
from ._measurement import Measurement
from ._parity import Agreement, ComparisonError, compare_outputs, input_mismatches
from ._stats import Interval, paired_ratio_ci
from ._timing import Options, Prepared, _gc_off, fmt_time

FORMAT = "levelbench.comparison"
FORMAT_VERSION = 1


@dataclasses.dataclass(frozen=True)
class Candidate:
    """One implementation to compare.

    Attributes:
        fn, args, kwargs: what to call.
        flops: floating-point operations per call, if you know them better than the framework.
        group: candidates in the same group must compute the same output; each is checked
            against the group's first candidate. Different groups (e.g. ``x @ x.T`` vs ``x @ y``)
            are still timed side by side.
        note: shown beside the candidate (e.g. "the question's version").
        inputs: the data inputs whose shapes/dtypes/devices must match across candidates
            (default: ``args`` and ``kwargs``). Leave out what each framework holds in its own
            layout, e.g. a JAX model's parameters passed as an argument: ``inputs=(x,)``.
        checked_output: the part of the output compared with the reference (default: all of it),
            e.g. ``lambda out: out[:2]`` when the rest is framework-specific (parameter gradients).
    """

    fn: Callable[..., Any]
    args: tuple = ()
    kwargs: dict = dataclasses.field(default_factory=dict)
    flops: float | None = None
    group: str = "default"
    note: str = ""
    inputs: tuple | None = None
    checked_output: Callable[[Any], Any] | None = None

    @property
    def checked_inputs(self) -> tuple:
        return (self.inputs, {}) if self.inputs is not None else (self.args, self.kwargs)

    @classmethod
    def coerce(cls, name: str, spec: Any) -> "Candidate":
        if isinstance(spec, Candidate):
            return spec
        if callable(spec):
            return cls(spec)
        if isinstance(spec, tuple) and spec and callable(spec[0]) and len(spec) <= 3:
            fn, args, kwargs = (*spec, (), {})[:3] if len(spec) == 1 else (*spec, {})[:3]
            if not isinstance(args, (tuple, list)):
                args = (args,)
            return cls(fn, tuple(args), dict(kwargs))
        raise TypeError(
            f"candidate {name!r}: expected a callable, (fn, args), (fn, args, kwargs) or a Candidate, "
            f"got {type(spec).__name__}"
        )


@dataclasses.dataclass(frozen=True)
class Comparison:
    """The result of `compare`: measurements, ratios to the baseline, findings, environment."""

    baseline: str
    measurements: dict[str, Measurement]
    rounds: dict[str, tuple[float | None, ...]]
    agreements: tuple[Agreement, ...] = ()
    findings: tuple[Finding, ...] = ()
    peak_flops: dict[str, float] = dataclasses.field(default_factory=dict)
    notes: dict[str, str] = dataclasses.field(default_factory=dict)
    groups: dict[str, str] = dataclasses.field(default_factory=dict)
    environment: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    title: str = ""
    params: dict[str, Any] = dataclasses.field(default_factory=dict)
    target_reached: bool = False
    rel_ci_target: float = 0.02
    skipped: dict[str, str] = dataclasses.field(default_factory=dict)

    @property
    def names(self) -> list[str]:
        return list(self.measurements)

    def ratio(self, name: str, baseline: str | None = None) -> Interval:
        """``time(name) / time(baseline)`` with a 95% paired-bootstrap CI over interleaved rounds."""
        base = baseline or self.baseline
        for n in (name, base):
            if n not in self.measurements:
                raise KeyError(f"no candidate named {n!r}; the candidates are {self.names}")
        pairs = [(a, b) for a, b in zip(self.rounds[name], self.rounds[base]) if a is not None and b is not None]
        if not pairs:
            m, b = self.measurements[name], self.measurements[base]
            return Interval(m.median / b.median, m.ci.lower / b.ci.upper, m.ci.upper / b.ci.lower)
        a, b = zip(*pairs)
        return paired_ratio_ci(a, b)

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
        m = self.measurements[name]
        peak = self.peak_flops.get(m.precision)
        return m.flops / m.median / peak if (m.flops and peak) else None

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
            "notes": self.notes,
            "groups": self.groups,
            "environment": self.environment,
            "target_reached": self.target_reached,
            "rel_ci_target": self.rel_ci_target,
            "skipped": self.skipped,
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
            notes=d.get("notes", {}),
            groups=d.get("groups", {}),
            environment=d.get("environment", {}),
            title=d.get("title", ""),
            params=d.get("params", {}),
            target_reached=d.get("target_reached", False),
            rel_ci_target=d.get("rel_ci_target", 0.02),
            skipped=d.get("skipped", {}),
        )

    def __rich__(self) -> Any:
        from ._render_compare import render_comparison

        return render_comparison(self)

    def __str__(self) -> str:
        from ._render import plain

        return plain(self, width=140)


def compare(
    candidates: Mapping[str, Any],
    *,
    baseline: str | None = None,
    strict: bool = True,
    check_outputs: bool = True,
    rtol: float | None = None,
    atol: float = 0.0,
    budget: float = 10.0,
    rel_ci: float = 0.02,
    target_sample_time: float = 0.01,
    min_rounds: int = 5,
    count_flops: bool = True,
    peak: bool = True,
    title: str = "",
    params: dict[str, Any] | None = None,
    timer: Callable[[], float] = time.perf_counter,
    environment: bool = True,
    progress: Callable[[str, float], None] | None = None,
    save: bool | str = False,
) -> Comparison:
    """Check that candidates take the same inputs and agree on outputs, then time them interleaved.

    ``candidates`` maps names to ``(fn, args)``, ``(fn, args, kwargs)``, a callable or a
    `Candidate`. ``baseline`` (default: the first) is what ratios are relative to.

    1. Input parity: array arguments' shapes, dtypes and devices must match the baseline's.
    2. Each candidate's first call (and, for jitted JAX, its compile) is timed; outputs are
       converted to NumPy and compared with dtype-aware, normwise tolerances (``rtol``/``atol``
       override): ``max|out - ref| <= atol + rtol * max|ref|``.
       With ``strict`` (default) a mismatch raises `ComparisonError`; otherwise it is recorded.
    3. FLOPs per call (declared, XLA cost analysis, or PyTorch's counter) give GFLOP/s and the
       share of the machine's measured peak; a candidate faster than the peak allows for its
       group's work, or doing >10% different work than the baseline, is flagged.
    4. Each candidate is calibrated alone, then sampled round-robin (A B C A B C ...) until every
       ratio's 95% CI (paired bootstrap over rounds) is within ``rel_ci`` or ``budget`` ends.

    ``save=True`` records the comparison in the results database (``save="path.db"``: that file).

    Example:
        >>> import numpy as np, levelbench
        >>> a = np.ones((300, 300), np.float32)
        >>> c = levelbench.compare({"dot": (np.dot, (a, a)), "matmul": (np.matmul, (a, a))}, budget=1)
        >>> c.verdict("matmul") in ("faster", "slower", "indistinguishable")
        True
    """
    if not candidates:
        raise ValueError("compare needs at least one candidate, got none")
    cands = {name: Candidate.coerce(name, spec) for name, spec in candidates.items()}
    base = baseline or next(iter(cands))
    if base not in cands:
        raise ValueError(f"baseline {base!r} is not a candidate; the candidates are {list(cands)}")
    report = progress or (lambda stage, fraction: None)
    findings: list[Finding] = []

    def problem(code: str, subject: str, title: str, evidence: str, fix: str) -> None:
        if strict:
            raise ComparisonError(f"{title}\n  {evidence}\n  fix: {fix}" if evidence else f"{title}\n  fix: {fix}")
        findings.append(Finding(code, title, Severity.ERROR, evidence=evidence, fix=fix, subject=subject))

    # 1. inputs
    mismatches = input_mismatches({n: c.checked_inputs for n, c in cands.items()}, base)
    input_fix = ("build every candidate's inputs from the same arrays, e.g. x_np = np.asarray(x_jax); "
                 "x_torch = torch.from_numpy(x_np)")
    if mismatches and strict:
        raise ComparisonError("different inputs:\n" + "\n".join(f"  {m}" for m in mismatches)
                              + f"\n  fix: {input_fix} (or strict=False to record this and time anyway)")
    for text in mismatches:
        problem("LB301", text.split(":", 1)[0], f"different inputs: {text}", "", input_fix)

    # 2. first calls, outputs
    options = Options(budget=budget, target_sample_time=target_sample_time, rel_ci=rel_ci, min_samples=min_rounds)
    prepared: dict[str, Prepared] = {}
    for i, (name, c) in enumerate(cands.items()):
        report(f"first call: {name}", i / len(cands))
        prepared[name] = Prepared(c.fn, c.args, c.kwargs, name, options, timer)
    agreements = []
    if check_outputs:
        firsts: dict[str, str] = {}
        for name, c in cands.items():
            ref = firsts.setdefault(c.group, name)
            if ref == name:
                continue
            agreement = compare_outputs(name, _checked(c, prepared[name].result), ref,
                                        _checked(cands[ref], prepared[ref].result), rtol, atol)
            agreements.append(agreement)
            if not agreement.ok:
                problem(
                    "LB302", name, f"not the same computation: {name} disagrees with {ref}",
                    agreement.detail if np.isinf(agreement.max_abs_error) else
                    f"max abs error {agreement.max_abs_error:.3g} at {agreement.where}, "
                    f"max rel error {agreement.max_rel_error:.3g}; {agreement.detail}",
                    "make both compute the same thing (same formula, same normalisation axis, same dtype), "
                    "or pass rtol=/atol= if the difference is expected rounding",
                )

    # 3. calibrate each alone, then interleave
    for i, (name, p) in enumerate(prepared.items()):
        report(f"calibrating: {name}", i / len(prepared))
        p.calibrate()
    rounds: dict[str, list[float | None]] = {n: [] for n in prepared}
    reached = False
    start = timer()
    with _gc_off():
        while True:
            for name, p in prepared.items():
                rounds[name].append(p.sample())
            n_rounds = len(rounds[base])
            elapsed = timer() - start
            report("timing", min(elapsed / budget, 1.0) if budget else 1.0)
            complete = all(len(p.samples) >= min_rounds for p in prepared.values())
            if complete and _ratios_within(rounds, base, rel_ci, n_rounds):
                reached = True
                break
            if complete and elapsed >= budget:
                break
            if n_rounds > 50 * min_rounds and not complete:
                break

    # 4. work accounting
    flops = {n: c.flops if c.flops is not None else (prepared[n].adapter.flops(c.fn, c.args, c.kwargs)
                                                     if count_flops else None)
             for n, c in cands.items()}
    peaks = _peaks() if peak else {}
    env = _environment() if environment else {}
    measurements = {}
    for name, p in prepared.items():
        measurements[name] = p.measurement(target_reached=reached, flops=flops[name], environment=env)
    findings += _work_findings(cands, measurements, flops, base, peaks)
    report("done", 1.0)
    result = Comparison(
        baseline=base,
        measurements=measurements,
        rounds={n: tuple(r) for n, r in rounds.items()},
        agreements=tuple(agreements),
        findings=tuple(findings),
        peak_flops=peaks,
        notes={n: c.note for n, c in cands.items() if c.note},
        groups={n: c.group for n, c in cands.items()},
        environment=env,
        title=title,
        params=dict(params or {}),
        target_reached=reached,
        rel_ci_target=rel_ci,
    )
    if save:
        from .store import open_store

        open_store(save if isinstance(save, str) else None).save_comparison(result, label=title or base)
    return result


def _checked(c: Candidate, result: Any) -> Any:
    return c.checked_output(result) if c.checked_output is not None else result


def _ratios_within(rounds: dict[str, list[float | None]], base: str, rel_ci: float, n_rounds: int) -> bool:
    # The bootstrap costs milliseconds; check on a schedule that thins out as rounds grow.
    if n_rounds > 20 and n_rounds % max(1, n_rounds // 10):
        return False
    for name, r in rounds.items():
        if name == base:
            continue
        pairs = [(a, b) for a, b in zip(r, rounds[base]) if a is not None and b is not None]
        if len(pairs) < 5:
            return False
        a, b = zip(*pairs)
        if paired_ratio_ci(a, b, resamples=500).relative_half_width > rel_ci:
            return False
    return True


def _peaks() -> dict[str, float]:
    from ._peak import machine_peak

    p = machine_peak()
    return {"float32": p.float32_flops, "float64": p.float64_flops}


def _environment() -> dict[str, Any]:
    from ._environment import collect

    return collect()


# Achieved FLOP/s above this multiple of the measured GEMM peak cannot be real work.
IMPLAUSIBLE_MARGIN = 1.5


def _work_findings(cands: dict[str, Candidate], ms: dict[str, Measurement], flops: dict[str, float | None],
                   base: str, peaks: dict[str, float]) -> list[Finding]:
    out = []
    group_work: dict[str, float] = {}
    for name, c in cands.items():
        if flops[name]:
            group_work[c.group] = max(group_work.get(c.group, 0.0), flops[name])
    base_flops = flops.get(base)
    for name, c in cands.items():
        m = ms[name]
        work = flops[name] or group_work.get(c.group)
        peak = peaks.get(m.precision)
        if work and peak and m.median < work / (peak * IMPLAUSIBLE_MARGIN):
            out.append(Finding(
                "LB303", f"implausibly fast: {fmt_time(m.median)} for {work / 1e9:,.3g} GFLOP is "
                f"{work / m.median / peak:,.1f}x this machine's peak",
                Severity.ERROR, subject=name,
                evidence=f"needs at least {fmt_time(work / peak)} at the measured peak of {peak / 1e9:,.0f} GFLOP/s",
                cost="the timing cannot include the work: something else was timed",
                fix="check that the call computes and returns the result (not a lambda, not a jitted "
                "function returning None) and that the result is waited for",
            ))
        if name != base and flops[name] and base_flops and abs(flops[name] / base_flops - 1) > 0.10:
            out.append(Finding(
                "LB304", f"different work: {flops[name] / 1e9:,.3g} GFLOP per call, "
                f"{base} does {base_flops / 1e9:,.3g} ({flops[name] / base_flops:.2f}x)",
                Severity.WARNING, subject=name,
                evidence="FLOP counts per call differ by more than 10%",
                cost="a time ratio between different amounts of work says little about the frameworks",
                fix="compare GFLOP/s instead of time, or make the candidates do the same work "
                "(e.g. x @ y with distinct operands for every framework)",
            ))
    return out
