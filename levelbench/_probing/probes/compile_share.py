"""LB270: what compilation costs next to running: trace / lower / compile / first run / steady state.

The split comes from ``jax.stages`` (trace, lower and compile timed one by one) after JAX's caches
are cleared, so it is a cold compile even when the user called the function before; the steady
state from `levelbench.measure`. Only a jitted function's compilation is reported: for an unjitted
one the compilation would be explain's own jit, which the user's code never pays. The compilation is set against the steady call ("as long as N calls")
and, where the eager time is known, against what jit saves per call ("pays back after N calls").
"""

from __future__ import annotations

import dataclasses
import math

from ..._values.findings import Finding, Severity
from ..._values.stats import Interval
from ..._values.threshold import Threshold, Verdict, judge, point
from ..._values.units import fmt_time
from ..subject import Subject
from .base import Probe
from ..._values.units import compile_split

WARN_SECONDS = 1.0
MIN_CALLS = 10  # a compilation shorter than this many steady calls is not worth a finding
MIN_SECONDS = 0.01


def run(subject: Subject) -> list[Finding]:
    compiled = subject.compiled()
    m = subject.jitted_timing()
    if compiled is None or m is None:
        return []
    split = compiled.split
    eager = _eager_time(subject)
    subject.measured.update(first_call=m.first_call, steady=m.median)
    if eager is not None:
        subject.measured["eager"] = eager
    if not subject.is_jitted:
        # The compilation measured is explain's own jit of the function: the user's code does not
        # pay it (LB240 gives it as what jitting would cost, with the calls it takes to pay back).
        return []
    found = compile_finding(subject.label, split.trace, split.lower, split.compile, m.first_call, m.median,
                            eager, split.cached, steady_ci=m.ci)
    s = subject.shortening
    if s is not None:  # numbers of a shortened input: a note beside LB201's projection at full length
        found = [dataclasses.replace(f, severity=Severity.INFO, evidence=f.evidence + (
            f" (measured with {s.argument} cut to {s.to} of {s.length} along axis {s.axis})")) for f in found]
    return found


def compile_finding(label: str, trace: float, lower: float, compile: float, first_call: float, steady: float,
                    eager: float | None, cached: bool = False, steady_ci: Interval | None = None) -> list[Finding]:
    """LB270 when the compilation lasts at least `MIN_CALLS` steady calls (decided on the steady
    time's CI, ``steady_ci``: the calls a compilation lasts lie between ``total / upper`` and
    ``total / lower``; a range that straddles `MIN_CALLS` gives the finding marked borderline) and
    at least `MIN_SECONDS`; a warning from `WARN_SECONDS` of compilation. The compile time is
    measured once (one cold compile), so it has no interval of its own."""
    total = trace + lower + compile
    if steady <= 0 or total < MIN_SECONDS:
        return []
    calls = total / steady
    ci = steady_ci or point(steady)
    calls_ci = Interval(calls, total / max(ci.upper, steady), total / min(ci.lower, steady) if ci.lower > 0 else math.inf)
    test = Threshold("compilation / steady call", calls_ci, MIN_CALLS, fmt="{:,.1f} calls".format)
    if test.verdict is Verdict.SHORT:
        return []
    evidence = (f"{compile_split(trace, lower, compile)}; "
                f"first run {fmt_time(first_call)}; steady state {fmt_time(steady)} per call")
    data = {"cost_seconds": total, "trace": trace, "lower": lower, "compile": compile, "first_call": first_call,
            "steady": steady, "steady_calls_per_compile": calls}
    if eager is not None and eager > steady:
        payback = total / (eager - steady)
        evidence += f"; op by op it takes {fmt_time(eager)}, so jit pays back after {math.ceil(payback):,} call(s)"
        data.update(eager=eager, payback_calls=payback)
    elif eager is not None:
        evidence += f"; op by op it takes {fmt_time(eager)}: jit never pays back at this size"
        data.update(eager=eager, payback_calls=None)
    if cached:
        evidence += " (yours was already compiled: these are the times of a fresh copy)"
    data["steady_calls_per_compile_ci"] = calls_ci.to_dict()
    return judge(Finding(
        "LB270",
        f"compilation takes {fmt_time(total)}, as long as {calls:,.0f} steady calls",
        Severity.WARNING if total >= WARN_SECONDS else Severity.INFO,
        evidence=evidence,
        cost=f"{fmt_time(total)} once per process and input shape; an unwarmed timing (%time f(x)) shows it",
        fix="warm up once before timing: jax.block_until_ready(f(*args))\n"
            "compile ahead of time: compiled = jax.jit(f).lower(*args).compile()\n"
            "keep compiled programs across runs: jax.config.update('jax_compilation_cache_dir', '.jax_cache')",
        subject=label,
        data=data,
    ), test)


def _eager_time(subject: Subject) -> float | None:
    """The call run op by op, known for an unjitted function (timed as given).

    A jitted function is not re-run under ``jax.disable_jit()``: op by op, a ``lax.scan`` over
    1000 steps or an unrolled loop takes minutes.
    """
    if subject.is_jitted:
        return None
    m = subject.timing()
    return m.median if m else None


PROBE = Probe("compile", ("LB270",), run,
              summary="trace / lower / compile / first run / steady state, and when compilation pays back")
