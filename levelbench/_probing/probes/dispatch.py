"""LB240: a JAX function run op by op, paying dispatch for every primitive.

Without ``jax.jit`` each primitive is dispatched on its own (tens of microseconds each). The
number of dispatches per call is the number of top-level equations of the traced program (a
jitted helper inside counts once); the function is timed as given and jitted, side by side. A
function that compiles on every call is not "op by op": its time is compilation (LB210). The fix
jits the outermost function: ``jax.jit(jax.grad(f))`` for a gradient, never ``jax.grad(jax.jit(f))``,
and the jitted time in the evidence is the measured time of that fix.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from ..._measuring.sampler import paired_timings
from ..._values.settings import PROBING
from ..._values.findings import Finding, Severity
from ..._values.stats import Interval, median_ci, paired_ratio_ci, unpaired_ratio_ci
from ..._values.threshold import Threshold, Verdict, judge, point, verdict
from ..._values.units import fmt_time
from ..arguments import jit_fix
from ..jaxpr import open_jaxpr
from ..subject import Subject
from .base import Probe

MIN_RATIO = 2.0
MIN_SAVING = 20e-6
FEW_DISPATCHES = 2
MIN_RATIO_FEW = 3.0
# Below this share of the paired rounds' wall time on a CPU, the process waited for a core during its
# samples: a finding past its thresholds is then borderline (the practical peak's guard, the same figure).
MIN_CPU_SHARE = 0.6
# The paired timing takes at least this many rounds (a paired interval needs them), at most
# `PROBING.paired_rounds`, and otherwise what fits in this share of explain's budget.
MIN_PAIRED_ROUNDS = 5
PAIRED_SHARE = 0.2


def run(subject: Subject) -> list[Finding]:
    if subject.is_jitted:
        return []
    trace = subject.traced()
    if not trace.ok:
        return []
    if subject.compiles_every_call():
        # Its time is compilation, not dispatch: the recompilation probe reports it (LB210).
        subject.notes.append(f"{subject.label} compiles on every call: its time is compilation (see LB210), "
                             "so it is not timed op by op")
        return []
    dispatches = len(open_jaxpr(trace.jaxpr).eqns)
    eager, jitted, compiled = subject.timing(), subject.jitted_timing(), subject.compiled()
    if eager is None or jitted is None or dispatches == 0:
        return []
    per_dispatch = eager.median / dispatches
    ratio = eager.median / jitted.median if jitted.median > 0 else float("inf")
    compile_total = compiled.split.total if compiled else None
    subject.measured.update(dispatches=dispatches, eager=eager.median, steady_jitted=jitted.median,
                            seconds_per_dispatch=per_dispatch, jit_speedup=ratio)
    scale = subject.measured.get("scale", {})
    loop = bool(scale.get("linear")) or bool(subject.measured.get("repeated_block"))
    name, expression = jit_fix(subject.fn, subject.label)
    paired = _paired(subject, paired_rounds(eager.median + jitted.median, subject.budget))
    return dispatch_finding(subject.label, dispatches, eager.median, jitted.median, compile_total,
                            unrolled=loop, name=name, fixed=expression,
                            eager_samples=eager.per_call, jitted_samples=jitted.per_call, paired=paired)


def paired_rounds(per_round: float, budget: float) -> int:
    """Rounds of the paired timing: as many as fit in `PAIRED_SHARE` of ``budget`` when a round (one
    sample of the call as given, one jitted) takes ``per_round`` seconds, between `MIN_PAIRED_ROUNDS`
    and `PROBING.paired_rounds`. A call of 0.1 s op by op would otherwise spend 3 s of a 5 s budget
    on 15 rounds, and be skipped for time; its speed-up over the jitted call is then tens of times,
    which five rounds decide as well as fifteen."""
    per_round = max(per_round, 2 * PROBING.sample_seconds)  # a sample lasts at least sample_seconds
    fits = int(PAIRED_SHARE * budget / per_round)
    return max(MIN_PAIRED_ROUNDS, min(PROBING.paired_rounds, fits))


def _paired(subject: Subject, rounds: int) -> tuple[tuple[float, ...], tuple[float, ...], float] | None:
    """The call as given and jitted, timed in turn over ``rounds`` rounds, with this process's CPU
    share over them: the two timings above were taken at different moments, and a machine whose load
    moved between them moved their ratio (LB240 on the same code was a warning in one run and absent
    in the next)."""
    try:
        (eager, jitted), share = paired_timings([(subject.fn, subject.args, subject.kwargs), subject.jit_target()],
                                                rounds=rounds)
    except Exception:  # it ran above: a failure now leaves the decision to the timings above
        return None
    return eager, jitted, share


def dispatch_finding(label: str, dispatches: int, eager: float, jitted: float, compile_total: float | None,
                     unrolled: bool = False, name: str | None = None, fixed: str | None = None,
                     eager_samples: Sequence[float] = (), jitted_samples: Sequence[float] = (),
                     paired: tuple[Sequence[float], Sequence[float], float] | None = None) -> list[Finding]:
    """LB240 when jitting saves a real share and a real amount per call.

    Both thresholds are decided on intervals (`judge`). With ``paired`` (per-call times of the call as
    given and jitted, one of each per round, timed in turn, and this process's CPU share over them),
    the speed-up's interval is a paired bootstrap over the rounds and the saving's the median round
    difference's CI, and the paired medians are the figures; where the process had its CPU for less
    than `MIN_CPU_SHARE` of the rounds, a finding past both thresholds is borderline (a sample the
    process spent waiting for a core is no time of the call, and pairing does not cancel it) unless
    it stays past them with every wait counted against the call as given (`_past_lost_time`);
    otherwise the speed-up's is a bootstrap of the two timings' per-call samples, the saving's from the medians' CIs (its widest honest range); without samples the point
    estimates decide. A speed-up or saving whose interval straddles its threshold gives the finding
    marked borderline.

    ``name = fixed`` is the fix (``grad_f = jax.jit(jax.grad(f))``), and ``jitted`` the measured
    time of exactly that. With one or two dispatches there is no "op by op" to speak of: the gap is
    JAX's eager per-call overhead, and it must be larger (`MIN_RATIO_FEW`) to stand out of the noise.
    """
    doubt = ""
    if paired is not None and min(len(paired[0]), len(paired[1])) >= 5:
        eager, jitted = float(np.median(paired[0])), float(np.median(paired[1]))
        ratio_ci, saving_ci = _paired_intervals(paired[0], paired[1])
        min_ratio = MIN_RATIO_FEW if dispatches <= FEW_DISPATCHES else MIN_RATIO
        if paired[2] < MIN_CPU_SHARE and not _past_lost_time(eager, jitted, paired[2], ratio_ci, saving_ci, min_ratio):
            doubt = (f"this process ran on a CPU for {paired[2]:.0%} of the time it was timed (the machine was "
                     "busy)")
    else:
        ratio_ci, saving_ci = _intervals(eager, jitted, eager_samples, jitted_samples)
    ratio = eager / jitted if jitted > 0 else float("inf")
    saving = eager - jitted
    few = dispatches <= FEW_DISPATCHES
    tests = (Threshold("speed-up from jit", ratio_ci, MIN_RATIO_FEW if few else MIN_RATIO, fmt="{:.2f}x".format),
             Threshold("saving per call", saving_ci, MIN_SAVING, fmt=fmt_time))
    if verdict(*tests) is Verdict.SHORT:
        return []
    per_dispatch = eager / dispatches
    name = name or (label if label.isidentifier() else "f")
    fixed = fixed or f"jax.jit({name})"
    compiled = f" after {fmt_time(compile_total)} of compilation" if compile_total else ""
    fix = f"{name} = {fixed}   # jit the outermost function, once"
    if unrolled:
        fix += "\n# its Python loop unrolls under jit (see LB201/LB202): turn it into jax.lax.scan or fori_loop first"
    pays = bool(compile_total) and saving > 0  # a borderline saving may measure <= 0: no payback to state
    payback = f"; jit pays for its compilation after {compile_total / saving:,.0f} calls" if pays else ""
    # explain sees the function, not how often the program calls it: the saving is per call, and
    # jitting only pays once the compilation is won back (called once, the function is faster as is).
    cost = f"{fmt_time(saving)} per call"
    pays_from = ""
    if pays:
        calls = max(1, round(compile_total / saving))
        pays_from = f"; jitting wins from about call {calls:,} on"
        cost += (f" saved by jitting, which costs {fmt_time(compile_total)} of compilation once and wins it "
                 f"back from about call {calls:,} on; called fewer times, it is faster as it is")
    if few:
        # What was measured is the time of one call each way; how often the program calls it is not
        # seen, so the title states the per-call gap and from which call the fix pays, nothing more.
        title = (f"{label} pays JAX's eager per-call overhead: {fmt_time(eager)} per call as given, "
                 f"{fmt_time(jitted)} jitted ({ratio:,.1f}x){pays_from}")
        evidence = (f"as given: {fmt_time(eager)} per call for {dispatches} primitive(s) and the Python around them; "
                    f"{name} = {fixed}: {fmt_time(jitted)}{compiled}{payback}")
    else:
        title = f"{label} runs op by op: {dispatches:,} primitive dispatches per call, {ratio:,.1f}x slower than jitted"
        evidence = (f"as given: {fmt_time(eager)} per call = {dispatches:,} dispatches x {fmt_time(per_dispatch)}; "
                    f"{name} = {fixed}: {fmt_time(jitted)}{compiled}{payback}")
    return judge(Finding(
        "LB240",
        title,
        Severity.WARNING,
        evidence=evidence,
        cost=cost,
        fix=fix,
        subject=label,
        data={"cost_seconds": saving, "dispatches": dispatches, "eager": eager, "jitted": jitted,
              "seconds_per_dispatch": per_dispatch, "ratio": ratio, "fix_expression": fixed,
              "ratio_ci": ratio_ci.to_dict(), "saving_ci": saving_ci.to_dict()},
    ), *tests, doubt=doubt)


def _past_lost_time(eager: float, jitted: float, share: float, ratio_ci: Interval, saving_ci: Interval,
                    min_ratio: float) -> bool:
    """Both thresholds still pass with the time this process waited for a core taken out of the call as
    given, in the worst case: all of it inside its samples. A round lasts about one sample of each call
    (a sample repeats a fast call for `PROBING.sample_seconds`), and the process ran for ``share`` of
    the rounds' wall time, so a round held ``(1 - share)`` of that in waits. 300x measured on a busy
    machine is still far past 2x when half of every round was a wait; 3x is not."""
    eager_sample = max(eager, PROBING.sample_seconds)
    waited = (1 - share) * (eager_sample + max(jitted, PROBING.sample_seconds))
    kept = max(0.0, 1 - waited / eager_sample)  # the share of the measured time that was the call's own
    return ratio_ci.lower * kept > min_ratio and saving_ci.lower - eager * (1 - kept) > MIN_SAVING


def _paired_intervals(eager: Sequence[float], jitted: Sequence[float]) -> tuple[Interval, Interval]:
    """The speed-up (ratio of medians, paired bootstrap over rounds) and the saving per call (the median
    of the rounds' differences, with its CI) from times taken in turn, one of each per round."""
    ratio = paired_ratio_ci(eager, jitted, resamples=1000)
    stated = float(np.median(eager) - np.median(jitted))  # the figure the finding states
    d = median_ci([e - j for e, j in zip(eager, jitted)])
    return ratio, Interval(stated, min(d.lower, stated), max(d.upper, stated))


def _intervals(eager: float, jitted: float, eager_samples: Sequence[float],
               jitted_samples: Sequence[float]) -> tuple[Interval, Interval]:
    """The speed-up ``eager / jitted`` and the saving ``eager - jitted`` with their 95% intervals."""
    ratio = eager / jitted if jitted > 0 else float("inf")
    if len(eager_samples) < 2 or len(jitted_samples) < 2 or jitted <= 0:
        return point(ratio), point(eager - jitted)
    r = unpaired_ratio_ci(eager_samples, jitted_samples, resamples=1000)
    e, j = median_ci(eager_samples), median_ci(jitted_samples)
    return (Interval(ratio, min(r.lower, ratio), max(r.upper, ratio)),
            Interval(eager - jitted, min(e.lower - j.upper, eager - jitted), max(e.upper - j.lower, eager - jitted)))


PROBE = Probe("dispatch", ("LB240",), run, expensive=True,
              summary="op-by-op dispatch of an unjitted function, timed against the same function jitted")
