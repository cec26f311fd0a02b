"""Measured fixes: the fixed program built, checked against the user's, and timed beside it.

A finding's fix is code; where that code can be applied mechanically, `explain` applies it to a
fresh copy of the function and measures it with `compare` (the same two steps a user would take):

1. the fixed variant's first call must agree with the original's outputs (compare's agreement
   check, dtype-aware normwise tolerances); a variant that changes the results is reported as such
   and never timed;
2. the two are timed interleaved (compare's rounds, each ratio with a 95% paired-bootstrap CI).

The measured ratio (``original / fixed``: how many times faster the fix is) and its CI go into the
finding's evidence and ``data["fix_trial"]``; every trial, including the ones refused, skipped for
time or only projected, is listed in ``Diagnosis.measured["fixes"]``.

Mechanical fixes: jit the outermost function (LB240, and LB210 where a jit created per call or
an unjitted ``lax.scan`` compiles every call: one jit around the whole, created once), and the same
program with x64 on (LB230/LB231: its time, and the numeric difference the probe measured: the
outputs change by design there, so they are not required to agree). A Python loop rewritten as
``lax.scan`` (LB201/LB202) is not mechanical: its figure stays a projection, labelled so.

Nothing of the user's is changed: variants are new function objects (``fresh_jit``), and x64 is
switched on only inside a context manager around each call of the variant.
"""

from __future__ import annotations

import dataclasses
import re
import time
from collections.abc import Callable
from typing import Any

from .._values.findings import Finding, Severity
from .._values.units import fmt_time
from .arguments import jit_fix
from .subject import Subject, fresh_jit

MEASURED, REFUSED, SKIPPED, PROJECTED, FAILED = "measured", "refused", "skipped", "projected", "failed"
PROCESSES, ALTERNATIVES = "processes", "alternatives"

# Findings whose fix is a rewrite of the user's code: their cost is projected, never measured.
PROJECTED_CODES = ("LB201", "LB202")
# Least seconds of interleaved timing a trial gets; below it the trial is skipped for time.
MIN_TRIAL_SECONDS = 0.3
# Share of explain's budget kept for the trials even when the probes spent all of it.
MIN_SHARE = 0.25
# Interleaved rounds a trial always takes (each round: one block of samples of each).
TRIAL_ROUNDS = 4
# The CI the trial aims for (compare stops once every ratio is within it, or its budget ends).
TRIAL_REL_CI = 0.05
# XLA compile seconds from which a program is compile-heavy: its compilation cache is measured.
CACHE_MIN_COMPILE = 0.1


@dataclasses.dataclass(frozen=True)
class Variant:
    """A fixed program: ``fn(*args, **kwargs)`` computes what the original call computes.

    ``same_outputs`` False: the fix changes the results by design (x64 on), so they are not
    required to agree and the difference is reported instead. ``checked_output``: the part of the
    variant's output compared with the original's (None: all of it).
    """

    key: str
    expression: str
    fn: Callable[..., Any]
    args: tuple
    kwargs: dict
    inputs: tuple
    same_outputs: bool = True
    checked_output: Callable[[Any], Any] | None = None
    note: str = ""
    original: Callable[[], Any] | None = None  # the call as given, when it must be timed another way too


@dataclasses.dataclass(frozen=True)
class FixTrial:
    """What happened when a finding's fix was applied: measured, refused, skipped, failed or projected.

    ``speedup`` is original time / fixed time (> 1: the fix is faster), with its 95% CI
    ``speedup_low``-``speedup_high`` from compare's interleaved rounds.
    """

    code: str
    status: str
    expression: str = ""
    original: float | None = None
    fixed: float | None = None
    speedup: float | None = None
    speedup_low: float | None = None
    speedup_high: float | None = None
    agreement: dict[str, Any] | None = None
    difference: float | None = None
    rounds: int = 0
    reason: str = ""
    at: str = ""
    note: str = ""
    kind: str = "interleaved"  # "processes": one compile in each of two fresh processes (no CI);
    # "alternatives": XLA's ways to compile the program, each timed against its default
    alternatives: tuple[dict[str, Any], ...] = ()

    @property
    def verdict(self) -> str:
        """``"faster"``, ``"slower"`` or ``"indistinguishable"`` at 95%, for a measured trial."""
        if self.speedup_low is None or self.speedup_high is None:
            return ""
        if self.speedup_low > 1:
            return "faster"
        if self.speedup_high < 1:
            return "slower"
        return "indistinguishable"

    def text(self) -> str:
        """One line for the finding's evidence, saying plainly which kind of figure it is."""
        at = f" {self.at}" if self.at else ""
        if self.status == MEASURED and self.kind == PROCESSES:
            how = (f"{self.speedup:.3g}x faster" if self.speedup >= 1 else
                   f"{1 / self.speedup:.3g}x slower" if self.speedup else "no figure")
            return (f"measured fix: compile {fmt_time(self.original)} in a fresh process, {fmt_time(self.fixed)} in "
                    f"the next one with {self.expression} ({how}, one compile in each process, no CI)"
                    + (f"; {self.note}" if self.note else ""))
        if self.status == MEASURED and self.kind == ALTERNATIVES:
            return _alternatives_text(self)
        if self.status == MEASURED:
            ci = f"95% CI {self.speedup_low:.3g}-{self.speedup_high:.3g}x"
            if self.verdict == "indistinguishable":
                how = f"no measurable difference ({self.speedup:.3g}x, {ci})"
            elif self.verdict == "slower":
                how = f"{1 / self.speedup:.3g}x slower ({ci} as a speed-up)"
            else:
                how = f"{self.speedup:.3g}x faster ({ci})"
            agreed = ""
            if self.agreement and self.agreement.get("ok") and self.agreement.get("compared", True):
                agreed = f"; outputs agree (max rel error {self.agreement['max_rel_error']:.2g})"
            elif self.difference is not None:
                agreed = f"; its output differs by {self.difference:.2g} (relative), as x64 intends"
            note = f"; {self.note}" if self.note else ""
            return (f"measured fix{at}: {fmt_time(self.original)} as given, {fmt_time(self.fixed)} with "
                    f"{self.expression}: {how}, {self.rounds} interleaved rounds{agreed}{note}")
        if self.status == REFUSED:
            return f"fix not timed{at}: {self.expression} changes the results: {self.reason}"
        if self.status == PROJECTED:
            return f"projected, not measured: {self.reason}"
        return f"fix not measured ({self.status}){at}: {self.reason}"

    def to_dict(self) -> dict[str, Any]:
        return {**dataclasses.asdict(self), "verdict": self.verdict}


def apply_fixes(subject: Subject, findings: list[Finding], deadline: float, enabled: bool = True,
                budget: float = 0.0) -> list[Finding]:
    """``findings`` with each mechanical fix measured (or refused, skipped, projected) in its evidence.

    ``deadline`` (``time.perf_counter()``, the end of explain's budget, moved to leave `MIN_SHARE`
    of ``budget`` when the probes overran): trials that cannot get `MIN_TRIAL_SECONDS` before it
    are skipped for time, and say so. One variant measured serves every finding it fixes.
    ``enabled`` False (``fixes=False``): nothing is built or timed; projections are still labelled.
    """
    deadline = max(deadline, time.perf_counter() + MIN_SHARE * budget)
    trials: dict[str, FixTrial] = {}
    out, listed = [], []
    for f in sorted(findings, key=_order):
        trial = _trial_for(subject, f, trials, deadline, enabled)
        if trial is None:
            out.append(f)
            continue
        listed.append({"finding": f.code, **trial.to_dict()})
        out.append(_with_trial(f, trial))
    if listed:
        subject.measured["fixes"] = listed
    return out


def _order(f: Finding) -> tuple[bool, float]:
    """Costliest first, so that the budget goes to the fixes that matter most."""
    cost = f.data.get("cost_seconds")
    return (f.severity < Severity.WARNING, -(cost if isinstance(cost, (int, float)) and cost == cost else 0.0))


def _trial_for(subject: Subject, f: Finding, trials: dict[str, FixTrial], deadline: float,
               enabled: bool) -> FixTrial | None:
    if f.code in PROJECTED_CODES:
        return FixTrial(f.code, PROJECTED, reason="rewriting a Python loop as jax.lax.scan is not mechanical; "
                                                  "the cost is projected from the lengths measured")
    special = _TRIALS.get(f.code)
    if special is not None:
        applies, run = special
        expression = applies(subject, f)
        if expression is None:
            return None
        if not enabled:
            return FixTrial(f.code, SKIPPED, expression, reason="fixes=False (--no-fixes): not built or timed")
        return run(subject, f, deadline)
    build = _BUILDERS.get(f.code)
    if build is None:
        return None
    variant = build(subject, f)
    if variant is None:
        return None
    if variant.key in trials:
        return dataclasses.replace(trials[variant.key], code=f.code)
    if not enabled:
        return FixTrial(f.code, SKIPPED, variant.expression, reason="fixes=False (--no-fixes): not built or timed")
    remaining = deadline - time.perf_counter()
    if remaining < MIN_TRIAL_SECONDS:
        trial = FixTrial(f.code, SKIPPED, variant.expression,
                         reason=f"explain's budget was spent ({max(remaining, 0):.2g} s left of the "
                                f"{MIN_TRIAL_SECONDS:g} s a trial needs): raise budget= to measure it",
                         at=_at(subject))
    else:
        trial = measure_variant(subject, f, variant, min(remaining / 2, 2.0))
    trials[variant.key] = trial
    return trial


def measure_variant(subject: Subject, f: Finding, variant: Variant, budget: float) -> FixTrial:
    """The agreement check, then interleaved timing, of ``variant`` against the call as given."""
    from .._measuring.candidate import Candidate
    from .._measuring.compare import compare
    from .._measuring.parity import ComparisonError

    at = _at(subject)
    given = (variant.original, variant.args, variant.kwargs) if variant.original is not None else \
        (subject.fn, subject.args, subject.kwargs)
    original = Candidate(*given, inputs=variant.inputs,
                         checked_output=(lambda out: None) if variant.checked_output is not None else None)
    fixed = Candidate(variant.fn, variant.args, variant.kwargs, inputs=variant.inputs,
                      checked_output=variant.checked_output)
    try:
        c = compare({"as given": original, "fixed": fixed}, strict=True, check_outputs=variant.same_outputs,
                    budget=budget, rel_ci=TRIAL_REL_CI, min_rounds=TRIAL_ROUNDS, count_flops=False, peak=False, environment=False,
                    isolate=False)
    except ComparisonError as e:
        text = " ".join(str(e).split())
        if "not the same computation" in text:
            return FixTrial(f.code, REFUSED, variant.expression, reason=text, at=at,
                            agreement={"ok": False, "detail": text})
        return FixTrial(f.code, FAILED, variant.expression, reason=text, at=at)
    except Exception as e:  # the variant does not run on this call: say so, never fail explain
        return FixTrial(f.code, FAILED, variant.expression, reason=f"{type(e).__name__}: {_first_line(e)}", at=at)
    ratio = c.ratio("fixed")  # fixed / original, paired over rounds
    agreement = None
    if variant.same_outputs:
        a = next((a for a in c.agreements if a.candidate == "fixed"), None)
        agreement = a.to_dict() if a is not None else None
        if agreement is not None:
            agreement["compared"] = variant.checked_output is None
    return FixTrial(
        f.code, MEASURED, variant.expression,
        original=c.measurements["as given"].median, fixed=c.measurements["fixed"].median,
        speedup=1 / ratio.estimate, speedup_low=1 / ratio.upper, speedup_high=1 / ratio.lower,
        agreement=agreement,
        difference=None if variant.same_outputs else f.data.get("relative"),
        rounds=sum(r is not None for r in c.rounds["fixed"]), at=at, note=_note(variant),
    )


def _note(variant: Variant) -> str:
    """The variant's note, with what XLA said while running it (a donation it could not use)."""
    said = getattr(variant.fn, "donation_warnings", None)
    if said:
        return "; ".join(filter(None, [variant.note, f"XLA did not use the donation: {said[0]}"]))
    return variant.note


def _with_trial(f: Finding, trial: FixTrial) -> Finding:
    data = {**f.data, "fix_trial": trial.to_dict()}
    if trial.status == PROJECTED:
        data["cost_kind"] = PROJECTED
        return dataclasses.replace(f, data=data, cost=f"projected: {f.cost}" if f.cost else f.cost)
    title = f.title
    if trial.status == SKIPPED and not trial.reason.startswith("explain's budget"):
        return dataclasses.replace(f, data=data)  # turned off: nothing to say in the evidence
    fix = f.fix
    if trial.status == MEASURED and trial.kind == ALTERNATIVES:
        faster = [m for m in trial.alternatives if m["faster"]]
        if faster:  # kept only when faster, with the measured figure
            best = min(faster, key=lambda m: m["ratio"])
            fix = (f"measured {1 / best['ratio']:.3g}x faster on the whole program ({best['name']}):\n{best['code']}"
                   + (f"\n{f.fix}" if f.severity >= Severity.WARNING else ""))
        return dataclasses.replace(f, fix=fix, data=data,
                                   evidence=f"{f.evidence}; {trial.text()}" if f.evidence else trial.text())
    if trial.status == MEASURED:
        data["cost_kind"] = MEASURED
        if f.code == "LB240" and trial.note:
            # The probe timed explain's own jit of a function returning nothing: an empty program.
            # The trial kept the work; its figure replaces the empty one in the title.
            title = re.sub(r"[\d,.]+x slower than jitted", f"{trial.speedup:,.1f}x slower than jitted (measured "
                           "with the work kept)", title)
    return dataclasses.replace(f, title=title, data=data,
                               evidence=f"{f.evidence}; {trial.text()}" if f.evidence else trial.text())


def _at(subject: Subject) -> str:
    s = subject.shortening
    return f"at {s.to} of {s.length} steps of {s.argument}" if s else ""


# -- the variants ------------------------------------------------------------------------------
def jit_outermost(subject: Subject, f: Finding) -> Variant | None:
    """``jax.jit`` around the whole function, a new one (the user's function and caches untouched).

    A function that returns nothing would be timed as an empty program under jit (XLA removes
    work nobody reads, LB220): the variant then returns every value the program computes and
    never uses, so the work is kept, and there is no output to compare.
    """
    if subject.framework != "jax" or subject.is_jitted:
        return None
    trace = subject.traced()
    if not trace.ok:
        return None
    name, expression = jit_fix(subject.fn, subject.label)
    jitted, arrays = fresh_jit(subject.fn, subject.args, subject.kwargs)
    fix = f"{name} = {expression}"
    if trace.jaxpr.jaxpr.outvars:
        return Variant("jit", fix, jitted, tuple(arrays), {}, tuple(arrays))
    kept = keep_alive(trace.jaxpr)
    if kept is None:
        return None
    fn, n = kept
    note = (f"{subject.label} returns nothing, so the jitted variant returns its {n} unused result(s) for XLA to "
            "keep the work (LB220); there are no outputs to compare")
    return Variant("jit", fix, fn, tuple(arrays), {}, tuple(arrays), checked_output=lambda out: None, note=note)


def keep_alive(closed: Any) -> tuple[Callable[..., Any], int] | None:
    """A new jitted function of the program's inputs returning every value computed and never read."""
    import jax
    from jax.extend.core import ClosedJaxpr, jaxpr_as_fun

    jaxpr = closed.jaxpr
    read = {id(v) for e in jaxpr.eqns for v in e.invars if not _is_literal(v)}
    sinks, seen = [], set()
    for e in jaxpr.eqns:
        for v in e.outvars:
            if id(v) not in read and id(v) not in seen and type(v).__name__ != "DropVar":
                sinks.append(v)
                seen.add(id(v))
    if not sinks:
        return None
    program = ClosedJaxpr(jaxpr.replace(outvars=sinks), closed.consts)
    run = jaxpr_as_fun(program)

    def kept(*arrays: Any) -> Any:
        return run(*arrays)

    return jax.jit(kept), len(sinks)


def _is_literal(v: Any) -> bool:
    return type(v).__name__ == "Literal"


def x64_on(subject: Subject, f: Finding) -> Variant | None:
    """The same program with ``jax_enable_x64`` on around each call of a new jit (flag restored after)."""
    if subject.framework != "jax" or "relative" not in f.data:
        return None  # only where the probe compared the outputs: that difference is the other half
    import jax

    jitted, arrays = fresh_jit(subject.fn, subject.args, subject.kwargs)
    # Jitted, a new jit of it (the user's cache gets no x64 entry); unjitted, the function itself.
    fn, args, kwargs = (jitted, tuple(arrays), {}) if subject.is_jitted else (subject.fn, subject.args, subject.kwargs)

    def with_x64(*a: Any, **k: Any) -> Any:
        with jax.enable_x64(True):
            return fn(*a, **k)

    with_x64.__name__ = with_x64.__qualname__ = f"{subject.label}_x64"
    return Variant("x64", 'jax.config.update("jax_enable_x64", True)', with_x64, args, kwargs, tuple(arrays),
                   same_outputs=False)


def donate_input(subject: Subject, f: Finding) -> Variant | None:
    """A new ``jax.jit(..., donate_argnums=...)`` beside the function as given, both fed their own output."""
    from .donation import Overwrite, threaded_pair

    found = f.data.get("donation")
    if subject.framework != "jax" or not found:
        return None
    overwrite = Overwrite(**{**found, "shape": tuple(found["shape"])})
    original, fixed, inputs = threaded_pair(subject.fn, subject.args, subject.kwargs, overwrite, subject.label)
    note = "each call's output is the next call's input, as an update is used; both start from a copy of yours"
    return Variant("donate", f.fix.splitlines()[0], fixed, (), {}, inputs, note=note,
                   original=original)


# -- the persistent compilation cache: a trial across processes ----------------------------
CACHE_FIX = 'jax.config.update("jax_compilation_cache_dir", ".jax_cache")'


def cache_applies(subject: Subject, f: Finding) -> str | None:
    """The cache's fix for a compile-heavy program the user's code compiles (LB270), else None."""
    if subject.framework != "jax" or not subject.is_jitted or f.data.get("compile", 0.0) < CACHE_MIN_COMPILE:
        return None
    return CACHE_FIX


def cache_trial(subject: Subject, f: Finding, deadline: float) -> FixTrial:
    """The program's compile in a fresh process, then in a second one reading the first's cache.

    Skipped when two fresh processes (jax imported, program compiled) do not fit before ``deadline``.
    """
    from . import compile_cache

    import jax

    needed = 2 * (compile_cache.IMPORT_SECONDS + 1.5 * (f.data.get("lower", 0.0) + f.data["compile"]))
    remaining = deadline - time.perf_counter()
    if remaining < needed:
        return FixTrial(f.code, SKIPPED, CACHE_FIX, kind=PROCESSES,
                        reason=f"explain's budget was spent (two fresh processes need ~{needed:.2g} s, "
                               f"{max(remaining, 0):.2g} s left): raise budget= to measure it")
    if jax.config.jax_compilation_cache_dir:
        note = f"your process already sets jax_compilation_cache_dir ({jax.config.jax_compilation_cache_dir})"
    else:
        note = "the program's StableHLO compiled by two fresh processes, the cache in a temporary directory removed after"
    try:
        program = compile_cache.lowered_program(subject.fn, subject.args, subject.kwargs)
        runs = compile_cache.two_processes(program, bool(jax.config.jax_enable_x64),
                                           timeout=max(30.0, 4 * needed))
    except Exception as e:  # not exportable (host callbacks...), or the child failed: say so
        return FixTrial(f.code, FAILED, CACHE_FIX, kind=PROCESSES, reason=f"{type(e).__name__}: {_first_line(e)}")
    first, second = runs["first"]["compile"], runs["second"]["compile"]
    if not runs["entries"]:
        note += "; the first process wrote nothing to the cache, so the second compiled again"
    return FixTrial(f.code, MEASURED, CACHE_FIX, original=first, fixed=second,
                    speedup=first / second if second > 0 else None, kind=PROCESSES,
                    note=f"{note}; each process also took {runs['second']['import']:.2g} s to import jax")


# -- XLA's alternatives for the CPU dot (LB262): the whole program, each in its own worker -----
XLA_FIX = "XLA's CPU dot alternatives"
# Seconds a worker takes to start, import jax and compile (budget check only).
WORKER_SECONDS = 3.0


def xla_applies(subject: Subject, f: Finding) -> str | None:
    return XLA_FIX if subject.framework == "jax" and "kernel" in f.data else None


def xla_trial(subject: Subject, f: Finding, deadline: float) -> FixTrial:
    """Each offered alternative compiled from the exported program and timed against XLA's default."""
    from . import xla_options

    alternatives, refused = xla_options.offered()
    remaining = deadline - time.perf_counter()
    timing = min(3.0, max(1.0, subject.budget / 5))
    needed = WORKER_SECONDS * (len(alternatives) + 1) / 2 + timing  # two at a time on most machines
    if remaining < needed:
        return FixTrial(f.code, SKIPPED, XLA_FIX, kind=ALTERNATIVES,
                        reason=f"explain's budget was spent ({len(alternatives) + 1} worker processes need ~"
                               f"{needed:.2g} s, {max(remaining, 0):.2g} s left): raise budget= to measure them")
    try:
        result = xla_options.measure(subject.fn, subject.args, subject.kwargs, timing,
                                     timeout=120 + 4 * needed)
    except Exception as e:  # not exportable, or a worker failed to start: say so
        return FixTrial(f.code, FAILED, XLA_FIX, kind=ALTERNATIVES, reason=f"{type(e).__name__}: {_first_line(e)}")
    measured = tuple(result["measured"])
    if not measured:
        why = "; ".join(f"{n}: {r.splitlines()[0]}" for n, r in {
            **refused, **result["failed"], **{n: "changes the results, not timed" for n in result["changed"]}}.items())
        return FixTrial(f.code, REFUSED if result["changed"] else FAILED, XLA_FIX, kind=ALTERNATIVES, reason=why or "no alternative ran")
    left_out = "; ".join(f"{n} {why}" for n, why in refused.items())
    if result.get("changed"):
        left_out = "; ".join(filter(None, [left_out, *(f"{n} changes the results, not timed"
                                                       for n in result["changed"])]))
    placebo = result.get("placebo")
    if placebo:
        floor = (f"XLA's default compiled again in another worker: {1 / placebo['ratio']:.3g}x (95% CI "
                 f"{1 / placebo['upper']:.3g}-{1 / placebo['lower']:.3g}x), the noise floor")
        left_out = "; ".join(filter(None, [floor, left_out and f"not tried: {left_out}"]))
    elif left_out:
        left_out = f"not tried: {left_out}"
    faster = [m for m in measured if m["faster"]]
    if not faster:
        return FixTrial(f.code, MEASURED, XLA_FIX, original=result["default_seconds"], kind=ALTERNATIVES,
                        alternatives=measured, note=left_out)
    best = min(faster, key=lambda m: m["ratio"])
    return FixTrial(f.code, MEASURED, best["code"], original=result["default_seconds"], fixed=best["seconds"],
                    speedup=1 / best["ratio"], speedup_low=1 / best["upper"], speedup_high=1 / best["lower"],
                    kind=ALTERNATIVES, alternatives=measured, note=left_out)


def _alternatives_text(t: FixTrial) -> str:
    listed = ", ".join(f"{m['name']} {1 / m['ratio']:.3g}x (95% CI {1 / m['upper']:.3g}-{1 / m['lower']:.3g}x)"
                       + ("" if m["agree"] else ", OUTPUTS DIFFER") for m in t.alternatives)
    faster = [m for m in t.alternatives if m["faster"]]
    if faster:
        best = min(faster, key=lambda m: m["ratio"])
        verdict = f"faster: {best['name']}, {fmt_time(best['seconds'])} against {fmt_time(t.original)} per call"
    else:
        verdict = "none is faster than XLA's default (and its noise floor) at 95%"
    return (f"measured XLA alternatives on the whole program ({fmt_time(t.original)} as compiled by default), each "
            f"compiled from it in a worker process of its own, outputs checked first: {listed} (speed-ups); "
            f"{verdict}" + (f"; {t.note}" if t.note else ""))


_TRIALS: dict[str, tuple[Callable[[Subject, Finding], str | None], Callable[[Subject, Finding, float], FixTrial]]] = {
    "LB270": (cache_applies, cache_trial),
    "LB262": (xla_applies, xla_trial),
}


_BUILDERS: dict[str, Callable[[Subject, Finding], Variant | None]] = {
    "LB253": donate_input,
    "LB240": jit_outermost,
    "LB210": jit_outermost,
    "LB230": x64_on,
    "LB231": x64_on,
}


def _first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else ""
