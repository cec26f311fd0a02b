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
an unjitted ``lax.scan`` compiles every call: one jit around the whole, created once), the same
program with x64 on (LB230/LB231: its time, and the numeric difference the probe measured: the
outputs change by design there, so they are not required to agree), and a donated buffer for a
jitted update (LB253: both fed their own output, as an update is used; `donation`). Two trials
run in other processes (`process_trials`): the persistent compilation cache for a compile-heavy
program (LB270) and XLA's CPU dot alternatives on the whole program (LB262). A Python loop
rewritten as ``lax.scan`` (LB201/LB202) is not mechanical: its figure stays a projection, labelled so.

Nothing of the user's is changed: variants are new function objects (``fresh_jit``), x64 is
switched on only inside a context manager around each call of the variant, a donated variant
starts from a copy of the caller's array, and the trials in other processes set their options
there only.
"""

from __future__ import annotations

import dataclasses
import math
import re
import time
from collections.abc import Callable
from typing import Any

from .._values.findings import Finding, Severity
from .arguments import jit_fix
from .budget import spent
from .process_trials import TRIALS
from .subject import Subject, fresh_jit
from .trial import ALTERNATIVES, FAILED, MEASURED, PROJECTED, REFUSED, SKIPPED, FixTrial, fastest, first_line
from .._frameworks import framework_of
from .._measuring.candidate import Candidate
from .._measuring.compare import compare
from .._measuring.parity import ComparisonError
from .donation import Overwrite, threaded_pair


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
    # Where the variant compiles another program than the one explain measured (the kept-work jit of a
    # function that returns nothing): its compile's likely seconds, worked out only when a trial may run.
    compile_estimate: Callable[[float], float] | None = None


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


def try_fix(fn: Callable[..., Any], args: tuple, kwargs: dict, f: Finding, budget: float,
            label: str = "") -> Finding:
    """``f`` (found by an earlier `explain` of ``fn(*args, **kwargs)``) with its fix measured within
    ``budget`` seconds: for a caller that probes cheaply first and measures a fix only where a
    finding calls for it (`levelbench run` tries XLA's alternatives where LB262 claims a gap)."""

    subject = Subject(fn, args, kwargs, label=label or getattr(fn, "__name__", "fn"),
                      framework=framework_of(fn, args, kwargs), budget=budget)
    trial = _trial_for(subject, f, {}, time.perf_counter() + budget, True)
    return f if trial is None else _with_trial(f, trial)


def _order(f: Finding) -> tuple[bool, float]:
    """Costliest first, so that the budget goes to the fixes that matter most."""
    cost = f.data.get("cost_seconds")
    return (f.severity < Severity.WARNING, -(cost if isinstance(cost, (int, float)) and cost == cost else 0.0))


def _trial_for(subject: Subject, f: Finding, trials: dict[str, FixTrial], deadline: float,
               enabled: bool) -> FixTrial | None:
    if f.code in PROJECTED_CODES:
        return FixTrial(f.code, PROJECTED, reason="rewriting a Python loop as jax.lax.scan is not mechanical; "
                                                  "the cost is projected from the lengths measured")
    special = TRIALS.get(f.code)
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
    if variant.original is None and subject.known("repeated_calls") and subject.compiles_every_call():
        trial = FixTrial(f.code, FAILED, variant.expression, at=_at(subject), reason=(
            "the call as given compiles on every call, so timing its steady state keeps no sample (samples "
            "that compiled are discarded); the finding's own figure, compile time per call, is the cost"))
        trials[variant.key] = trial
        return trial
    remaining = deadline - time.perf_counter()
    first_calls = _first_calls(subject)
    needs = MIN_TRIAL_SECONDS + first_calls
    if remaining >= needs and variant.compile_estimate is not None:
        first_calls += variant.compile_estimate(remaining)  # the variant's own compile, beside the one measured
        needs = MIN_TRIAL_SECONDS + first_calls
        remaining = deadline - time.perf_counter()  # estimating it took time too
    if remaining < needs:
        trial = FixTrial(f.code, SKIPPED, variant.expression,
                         reason=spent(subject.budget, needs, remaining, "a trial"), at=_at(subject))
    else:
        trial = measure_variant(subject, f, variant, min((remaining - first_calls) / 2, 2.0))
    trials[variant.key] = trial
    return trial


def _first_calls(subject: Subject) -> float:
    """Seconds of a trial outside compare's own budget: the two first calls (the fixed variant
    compiles; so may the original), at the compile time a probe measured, and the rounds compare
    always takes, at the steady call explain measured."""
    compiled = subject.measured.get("compile") or {}
    calls = subject.measured.get("budget") or {}
    # and compare's rounds: at least TRIAL_ROUNDS blocks of each, a call as given at least per block
    return 2 * float(compiled.get("total", 0.0)) + 2 * TRIAL_ROUNDS * float(calls.get("second_call", 0.0))


def measure_variant(subject: Subject, f: Finding, variant: Variant, budget: float) -> FixTrial:
    """The agreement check, then interleaved timing, of ``variant`` against the call as given."""

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
        reason = f"{type(e).__name__}: {first_line(e)}"
        if "recompiles on every call" in reason:  # the sampler's advice is to run explain: we are in it
            which = "the fixed variant" if str(e).startswith("fixed") else "the call as given"
            reason = (f"{which} compiles on every call, so timing its steady state keeps no sample (samples "
                      "that compiled are discarded); the finding's own figure, compile time per call, is the cost")
        return FixTrial(f.code, FAILED, variant.expression, reason=reason, at=at)
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
        best = fastest(trial.alternatives)
        if best is not None:  # kept only when faster, with the measured figure
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
    return Variant("jit", fix, fn, tuple(arrays), {}, tuple(arrays), checked_output=lambda out: None, note=note,
                   compile_estimate=lambda left: kept_compile_seconds(trace.jaxpr, tuple(arrays), left))


# Programs of fewer equations than this compile in well under a second: their compile is not estimated.
ESTIMATED_FROM = 200


def kept_compile_seconds(closed: Any, arrays: tuple, left: float = math.inf) -> float:
    """The likely compile seconds of `keep_alive`'s program, erring high: it cannot be read off the program
    explain compiled (XLA emptied that one), nor off its size. Its first eighth and first quarter are
    compiled, each kept whole, and the quarter's time is extended to the whole program as a power of its
    length: the growth measured between the two, but at least quadratic. Small prefixes hide how XLA's
    passes grow: on 011's loop of `random.split` steps (2-core VM, loaded) the eighth took 0.77 s and the
    quarter 1.36 s (growth 0.8), the whole 8.5 s; 30 steps compiled in 1.8 s and 100 in 16 s (growth 1.8).
    Erring high costs a trial (skipped for time; the finding and its probe's figures stay), erring low
    costs the budget. Where the eighth alone, grown in proportion (the least it can be), already needs
    more than ``left`` seconds, that is the estimate, and the quarter is not compiled."""
    jaxpr = closed.jaxpr
    n = len(jaxpr.eqns)
    if n < ESTIMATED_FROM:
        return 0.0
    seconds = []
    for k in (n // 8, n // 4):
        prefix = keep_alive(_prefix(closed, k))
        if prefix is None:
            return 0.0
        started = time.perf_counter()
        try:
            prefix[0].lower(*arrays).compile()
        except Exception:  # a prefix JAX cannot compile alone: no estimate, the trial runs as before
            return 0.0
        seconds.append(time.perf_counter() - started)
        if len(seconds) == 1 and 8 * seconds[0] > left:
            return 8 * seconds[0]
    growth = math.log(max(seconds[1], 1e-6) / max(seconds[0], 1e-6)) / math.log(2)
    return seconds[1] * 4 ** min(max(growth, 2.0), 3.0)


def _prefix(closed: Any, k: int) -> Any:
    """The program of ``closed``'s first ``k`` equations (outputs: whatever `keep_alive` keeps)."""
    from jax.extend.core import ClosedJaxpr

    return ClosedJaxpr(closed.jaxpr.replace(eqns=closed.jaxpr.eqns[:k], outvars=[]), closed.consts)


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

    found = f.data.get("donation")
    if subject.framework != "jax" or not found:
        return None
    overwrite = Overwrite(**{**found, "shape": tuple(found["shape"])})
    original, fixed, inputs = threaded_pair(subject.fn, subject.args, subject.kwargs, overwrite, subject.label)
    note = "each call's output is the next call's input, as an update is used; both start from a copy of yours"
    return Variant("donate", f.fix.splitlines()[0], fixed, (), {}, inputs, note=note,
                   original=original)


_BUILDERS: dict[str, Callable[[Subject, Finding], Variant | None]] = {
    "LB253": donate_input,
    "LB240": jit_outermost,
    "LB210": jit_outermost,
    "LB230": x64_on,
    "LB231": x64_on,
}

# Codes whose fix explain builds and measures (the probes leave the trials a share of the budget once one is found).
TRIED_CODES = frozenset(_BUILDERS) | frozenset(TRIALS)
