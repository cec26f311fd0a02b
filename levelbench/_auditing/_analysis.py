"""From the child's raw observations to timed intervals and findings: pure, testable without a process.

The raw observations (`_observer.Observer.to_json`): the user's clock reads on a reference clock, the pairs
of reads the script subtracted, and JAX's compile events with their end on the reference clock. A pair is
one sample of an interval; the samples of one line pair (a loop) form one `TimedInterval`.
"""

from __future__ import annotations

import ast
import bisect
from collections.abc import Mapping, Sequence
from typing import Any

from .._results.script_audit import FairFigure, Sample, TimedInterval
from .._values.catalogue import rule_for
from .._values.findings import Finding
from .._values.units import fmt_time
from ._observer import CLOCK, GRAD, LINE, MAGIC, PENDING, PENDING_ARRAYS, REF, TRACE_EVENT, VALUE, VIA_TIMEIT

PENDING_FLOOR = 1e-4
"""Seconds of work left at the closing read below which it is noise (a result finishing as it is read)."""
SHARE = 0.05
"""Pending work or compilation counts when it is at least this share of what the script measured."""


def intervals(raw: Mapping[str, Any], source: str) -> tuple[TimedInterval, ...]:
    """The script's timed intervals, each with its samples and findings, in the order first sampled."""
    reads: Sequence[Sequence[Any]] = raw.get("reads", ())
    events = sorted(((str(e[0]), float(e[1]), int(e[2]), str(e[3])) for e in raw.get("events", ())),
                    key=lambda e: e[2])
    ends = [e[2] for e in events]
    groups: dict[tuple[int, int, str], list[Sample]] = {}
    timeit_groups: set[tuple[int, int, str]] = set()
    magics: dict[tuple[int, int, str], str] = {}
    calibrating = {tuple(p) for p in raw.get("calibrating", ())}
    for first, last in dict.fromkeys(tuple(p) for p in raw.get("pairs", ())):
        opening, closing = reads[first], reads[last]
        key = (int(opening[LINE]), int(closing[LINE]), str(closing[CLOCK]))
        inside = events[bisect.bisect_right(ends, opening[REF]):bisect.bisect_right(ends, closing[REF])]
        groups.setdefault(key, []).append(_sample(opening, closing, inside, (first, last) in calibrating))
        if len(closing) > MAGIC and closing[MAGIC]:
            magics[key] = str(closing[MAGIC])
        if opening[VIA_TIMEIT] and closing[VIA_TIMEIT]:
            timeit_groups.add(key)
    lines = source.splitlines()
    loops = _loop_spans(source)
    fair = raw.get("fair", {})
    found = []
    for (opening_line, closing_line, clock), samples in groups.items():
        low, high = sorted((opening_line, closing_line))
        figure, note = _fair(fair.get(f"{opening_line}:{closing_line}"), raw.get("status", "finished"))
        interval = TimedInterval(
            opening_line=opening_line, closing_line=closing_line, clock=clock, samples=tuple(samples),
            via_timeit=(opening_line, closing_line, clock) in timeit_groups,
            loop_inside=any(low < start and end < high for start, end in loops),
            source="\n".join(lines[low - 1:min(high, low + 14)]),
            fair=figure, fair_note=note, magic=magics.get((opening_line, closing_line, clock), ""),
        )
        found.append(_with_findings(interval))
    return tuple(found)


def _sample(opening: Sequence[Any], closing: Sequence[Any], inside: list[tuple[str, float, int, str]],
            calibration: bool = False) -> Sample:
    """One sample, from its two reads and the compile events that ended between them."""
    compiled: dict[str, float] = {}
    traces: dict[str, int] = {}
    for event, seconds, _, name in inside:
        function = _function(name)
        compiled[function] = compiled.get(function, 0.0) + seconds
        if event == TRACE_EVENT:
            traces[function] = traces.get(function, 0) + 1
    return Sample(
        measured=float(closing[VALUE]) - float(opening[VALUE]),
        compile=sum(e[1] for e in inside),
        compiled=compiled, traces=traces,
        pending=float(closing[PENDING]), pending_arrays=int(closing[PENDING_ARRAYS]),
        grad_enabled=closing[GRAD], calibration=calibration,
    )


def _fair(figure: Mapping[str, Any] | None, status: str) -> tuple[FairFigure | None, str]:
    if figure is None:
        if status != "finished":
            return None, "not re-timed: the script did not finish"
        return None, "not re-timed: the difference was computed outside the script's code (timeit repeats it already)"
    if "refused" in figure:
        return None, f"not re-timed: {figure['refused']}"
    return FairFigure(float(figure["median"]), float(figure["low"]), float(figure["high"]), int(figure["samples"]),
                      str(figure.get("framework", ""))), ""


def _function(name: str) -> str:
    """``jit(f)`` (the backend compile's name) and ``f`` (the trace's) are one function."""
    return name[4:-1] if name.startswith("jit(") and name.endswith(")") else name


def _loop_spans(source: str) -> list[tuple[int, int]]:
    """(first line, last line) of every loop statement in the script (none if it does not parse)."""
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    return [(n.lineno, n.end_lineno or n.lineno) for n in ast.walk(tree) if isinstance(n, (ast.For, ast.While))]


def _with_findings(interval: TimedInterval) -> TimedInterval:
    checks = (_unawaited(interval), _compile_timed(interval), _single_sample(interval), _retraced(interval))
    found = [f for f in checks if f is not None]
    return TimedInterval(**{**interval.__dict__, "findings": tuple(found)})


def _finding(code: str, interval: TimedInterval, title: str, evidence: str, data: dict[str, Any]) -> Finding:
    rule = rule_for(code)
    return Finding(code=code, title=title, severity=rule.severity, evidence=evidence, cost=rule.cost, fix=rule.good,
                   subject=interval.lines, data=data)


def _share(part: float, whole: float) -> str:
    share = part / whole if whole > 0 else 0.0
    return f"{share:.0%}" if share >= 0.01 else f"{share:.2%}"


def _of_samples(hits: int, interval: TimedInterval) -> str:
    total = len(interval.timed)
    return "" if total == 1 else f" (in {hits} of {total} samples; the worst shown)"


def _unawaited(interval: TimedInterval) -> Finding | None:
    """LB102: JAX work still running when the closing clock was read."""
    hits = [s for s in interval.timed if s.pending > PENDING_FLOOR and s.pending >= SHARE * max(s.measured, 0.0)]
    if not hits:
        return None
    worst = max(hits, key=lambda s: s.pending)
    whole = worst.measured + worst.pending
    evidence = (f"the clock stopped {fmt_time(worst.measured)} after it started; the JAX work still running then "
                f"({worst.pending_arrays} array{'s' if worst.pending_arrays != 1 else ''}) finished "
                f"{fmt_time(worst.pending)} later: the script measured {_share(worst.measured, whole)} of "
                f"{fmt_time(whole)}{_of_samples(len(hits), interval)}")
    return _finding("LB102", interval, f"{interval.lines}: the clock stopped before the JAX work finished", evidence,
                    {"measured": worst.measured, "pending": worst.pending, "samples_pending": len(hits)})


def _compile_timed(interval: TimedInterval) -> Finding | None:
    """LB103: tracing and compilation ran inside the interval."""
    hits = [s for s in interval.timed if s.compile > 0 and s.compile >= SHARE * max(s.measured, 0.0)]
    if not hits:
        return None
    worst = max(hits, key=lambda s: s.compile)
    parts = ", ".join(f"{name or '?'} {fmt_time(seconds)}" for name, seconds in
                      sorted(worst.compiled.items(), key=lambda kv: -kv[1]))
    which = "the first sample" if worst is interval.timed[0] and len(interval.timed) > 1 else "it"
    evidence = (f"{fmt_time(worst.compile)} of the {fmt_time(worst.measured)} were JAX tracing and compilation "
                f"({parts}), inside {which}{_of_samples(len(hits), interval)}")
    traced = sorted({name for s in hits for name in s.traces})
    title = f"{interval.lines}: compilation timed" + (f" (first call of {', '.join(traced)})" if traced else "")
    return _finding("LB103", interval, title, evidence,
                    {"compile": worst.compile, "measured": worst.measured, "samples_compiling": len(hits)})


def _single_sample(interval: TimedInterval) -> Finding | None:
    """LB104: the interval was sampled once, around one stretch of code with no loop in it."""
    if len(interval.samples) != 1 or interval.via_timeit or interval.loop_inside or interval.magic == "time":
        return None
    sample = interval.samples[0]
    cold = f", cold: {fmt_time(sample.compile)} of it compilation" if sample.cold else ""
    evidence = f"sampled once: {fmt_time(sample.measured)}{cold}; one number, no spread to judge it by"
    return _finding("LB104", interval, f"{interval.lines}: a single timing sample", evidence,
                    {"measured": sample.measured, "cold": sample.cold})



def _retraced(interval: TimedInterval) -> Finding | None:
    """LB117: a function traced again in more than one sample: the jit cache missed call after call."""
    counts: dict[str, int] = {}
    for sample in interval.timed:
        for function in sample.traces:
            counts[function] = counts.get(function, 0) + 1
    again = {function: n for function, n in counts.items() if n >= 2}
    if not again:
        return None
    function, times = max(again.items(), key=lambda kv: kv[1])
    seconds = sum(s.compiled.get(function, 0.0) for s in interval.samples)
    evidence = (f"`{function}` was traced and compiled again in {times} of {len(interval.samples)} samples "
                f"({fmt_time(seconds)} of compilation in all): its jit cache missed call after call, for a new "
                "input shape, dtype or static value, or because the function is jitted afresh (LB111)")
    return _finding("LB117", interval, f"{interval.lines}: `{function}` recompiled in {times} samples", evidence,
                    {"function": function, "samples_retraced": times, "compile": seconds})
