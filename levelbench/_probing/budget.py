"""explain's time budget: what each probe and fix trial will likely cost, and whether it still fits.

``explain(fn, *args, budget=B)`` returns within about ``B`` seconds after the function's own first
call (its trace and compile, which explain cannot avoid). Before each probe, its cost is estimated
from what has been measured so far: the first call's seconds, a second call's (the steady state,
or a recompilation when the function compiles on every call), the compile time once a probe has
measured it, and the facts the subject has computed already (a trace or a timing a probe shares
costs nothing the second time). A probe that does not fit in what is left is skipped for time,
with the budget that would run it.

The estimates are rough by design (a probe's work is a few traces, compiles and timings); what
they must get right is the order of magnitude, so a 14 s probe is not started with 3 s left.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable
from typing import Any

from .._values.settings import PROBING
from . import scale as _scale
from .probes.dispatch import paired_rounds
from .probes.kernels import kernel_to_time
from .subject import Subject

Clock = Callable[[], float]

# Fixed seconds a probe's own Python work takes besides the calls it makes (jaxpr walks, fits).
PROBE_OVERHEAD = 0.05
# The kernel probe's micro-benchmark runs in worker processes: their start-up, besides its timing
# (twice when a gap is seen and replicated).
KERNEL_WORKERS = 5.0
# A trace estimated to take less than this is made to estimate the kernel probe: a program with no
# kernel big enough to time (most) costs the probe nothing more.
CHEAP_TRACE = 1.0
# Probes that read settings only: never skipped for time.
FREE = frozenset({"config"})
# Share of the budget kept for the fix trials from the probes after a finding whose fix is measured.
FIX_SHARE = 0.25


@dataclasses.dataclass(frozen=True)
class Costs:
    """What explain has measured of the call so far, in seconds.

    ``first_call``: the first call as given (with its trace and compile); ``steady``: a later call
    as given; ``compile``: the jitted program's trace + lower + compile once measured, else the best
    guess (the first call); ``sample``: the sampling time of one timing.
    """

    first_call: float
    steady: float
    compile: float
    sample: float


def costs_of(subject: Subject, first_call: float, steady: float) -> Costs:
    """The costs known now: the compile time measured by a probe replaces the first call's. After the
    unrolled-loop probe has cut the loop to a few of its steps, the probes run on that shorter call: its
    calls and timings take that share of the times measured on the call as given."""
    compiled = subject.measured.get("compile")
    scale = subject.measured.get("scale") or {}
    share = subject.shortening.to / subject.shortening.length if subject.shortening is not None else 1.0
    if compiled and "total" in compiled:
        compile = float(compiled["total"])
    elif scale.get("linear") and subject.shortening is None:
        compile = float(scale.get("projected_seconds", first_call))  # the whole loop, unrolled, at full length
    elif subject.shortening is not None:  # the probes run on a few steps of the loop the first call ran
        compile = first_call * share
    else:
        compile = first_call
    return Costs(first_call * share, steady * share, compile, subject.measure_budget)


def _timing(c: Costs, runs: float) -> float:
    """A quick timing: its first call, then ``runs`` samples, or fewer of a call so slow that they
    would take over twice ``c.sample`` (`quick_timing`)."""
    return c.steady + min(runs * c.steady, 2 * c.sample + c.steady)


def pending(subject: Subject, c: Costs, *facts: str) -> float:
    """Seconds the facts not yet computed by the subject will take."""
    seconds = 0.0
    compiles_first = subject.is_jitted or not subject.known("compiled")
    for fact in facts:
        if subject.known(fact):
            continue
        if fact == "traced":
            seconds += 0.0 if subject.known("compiled") or "compiled" in facts else 0.3 * c.compile
        elif fact == "compiled":
            seconds += c.compile
        elif fact == "timing":  # jitted: JAX's caches were cleared by the trace, the first call compiles
            seconds += _timing(c, 4) + (c.compile if subject.is_jitted else 0.0)
        elif fact == "jitted_timing":
            seconds += pending(subject, c, "timing") if subject.is_jitted else _timing(c, 4)
            if compiles_first and "compiled" not in facts:
                seconds += pending(subject, c, "compiled")
        elif fact == "repeated_calls":
            seconds += 3 * c.steady + (c.compile if subject.is_jitted else 0.0)
    return seconds


def _int_arguments(s: Subject) -> int:
    return sum(type(a) is int for a in (*s.args, *s.kwargs.values()))


def _calls_given(subject: Subject, c: Costs) -> float:
    return len(subject.calls) * max(c.steady, 0.0) + (c.compile if subject.calls else 0.0)


# Each probe's cost from the facts it reads and the work of its own; see the probe modules.
ESTIMATES: dict[str, Callable[[Subject, Costs], float]] = {
    "config": lambda s, c: 0.0,
    # traces at 4 short lengths (and compiles at 3 when the program grows), a fraction of the
    # compile at full length; the first trace at full length for a single-trace loop
    "unrolled": lambda s, c: _unrolled(s, c),
    "dead": lambda s, c: pending(s, c, "traced", "compiled", "jitted_timing"),
    "precision": lambda s, c: pending(s, c, "traced", "compiled") + c.compile + 2 * c.steady,  # an x64 copy
    # unjitted: the call as given once more, its reads of device arrays counted (a first call's cost)
    "transfers": lambda s, c: pending(s, c, "traced") + (0.0 if s.is_jitted or s.quick else c.first_call),
    "donation": lambda s, c: pending(s, c, "traced") + (0.3 * c.compile if s.is_jitted else 0.0),
    "compile": lambda s, c: pending(s, c, "compiled", "jitted_timing", "timing"),
    "retrace": lambda s, c: _retrace(s, c),
    "dispatch": lambda s, c: _dispatch(s, c),
    "roofline": lambda s, c: pending(s, c, "traced", "compiled", "jitted_timing"),
    "kernels": lambda s, c: _kernels(s, c),
    "torch": lambda s, c: 2 * _timing(c, 4),
}


# Lengths the unrolled-loop probe traces at (a warm-up at 1, then 4, 8, 16) and the seconds each
# trace and compile takes whatever the program (XLA's fixed cost).
UNROLLED_STEPS = 1 + 4 + 8 + 16
PER_COMPILE = 0.1


def _unrolled(s: Subject, c: Costs) -> float:
    """Traces and compiles at a few short lengths: that share of the first call's steps (explain's
    own jit of an unjitted function costs it at least as much as the jitted first call); without a
    length to cut, one trace at the full length."""
    try:
        axis = _scale.choose(s.fn, s.args, s.kwargs, s.scale_axis)
    except Exception:  # a wrong scale_axis was refused before the probes; anything else: no axis
        axis = "none"
    if isinstance(axis, str):
        return pending(s, c, "traced")
    axes = [axis]
    if axis.guessed:  # every axis of the guessed argument is tried (a loop over n in ``m, n = A.shape``)
        axes += [a for a in _scale.candidates(s.fn, s.args, s.kwargs, axis) if a.index == axis.index]
    return sum(min(c.compile, c.compile * UNROLLED_STEPS / max(a.length, 1)) + 4 * PER_COMPILE for a in axes)


def _retrace(s: Subject, c: Costs) -> float:
    """The user's calls, or the example call repeated; without calls=, each Python int argument is
    tried once with another value (a compile each). Identical calls known to compile again already
    (explain's own two calls) decide it without another call."""
    if s.known("repeated_calls") and s.compiles_every_call():
        return 0.0
    if s.calls is not None:
        return _calls_given(s, c)
    return pending(s, c, "repeated_calls") + _int_arguments(s) * (c.compile + c.steady)


def _dispatch(s: Subject, c: Costs) -> float:
    """A jitted function is not op by op: the probe returns at once. A function that compiles on every
    call is not timed op by op either: one trace, then a note."""
    if s.is_jitted:
        return 0.0
    if s.known("repeated_calls") and s.compiles_every_call():
        return pending(s, c, "traced")
    # then the call as given and jitted in turn, a sample of each (at least a call) per round; the
    # jitted call is taken to cost as much as the call as given (an upper bound)
    per_round = 2 * max(PROBING.sample_seconds, c.steady)
    paired = paired_rounds(per_round, s.budget) * per_round
    return pending(s, c, "traced", "compiled", "timing", "jitted_timing", "repeated_calls") + paired


def _kernels(s: Subject, c: Costs) -> float:
    """The kernel probe times a dense kernel in workers; a program with none costs it one walk."""
    if s.known("traced") or pending(s, c, "traced") <= CHEAP_TRACE:  # a trace this cheap tells the cost
        trace = s.traced()
        if not trace.ok or kernel_to_time(trace.jaxpr) is None:
            return 0.0
    return pending(s, c, "traced", "compiled", "jitted_timing") + KERNEL_WORKERS + 2 * min(3.0, max(1.0, s.budget / 5))


def estimate(name: str, subject: Subject, costs: Costs) -> float:
    """Seconds the probe ``name`` will likely take on ``subject`` given what is measured so far."""
    if name in FREE:
        return 0.0
    how = ESTIMATES.get(name)
    return PROBE_OVERHEAD + (how(subject, costs) if how else costs.first_call)


@dataclasses.dataclass(frozen=True)
class TimeSkip:
    """Something explain did not run for lack of time: what, the seconds it needed and had, and the
    budget that would have run it."""

    what: str
    needs: float
    left: float
    budget: float

    def reason(self) -> str:
        would = _nice(self.budget)
        return (f"skipped for time: {self.what} needs about {_seconds(self.needs)}, "
                f"{_seconds(max(self.left, 0.0))} of the budget left; a budget of {would} s would run it "
                f"(budget={would}, --budget {would})")

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


class Schedule:
    """The budget's clock: ``budget`` seconds from ``start`` (the end of the first call).

    ``reserve`` seconds at the end are kept from the probes for the fix trials (set once a probe
    found something whose fix explain measures). ``clock`` is
    ``time.perf_counter`` (a fake one in tests).
    """

    def __init__(self, budget: float, start: float, *, reserve: float = 0.0, clock: Clock = time.perf_counter):
        self.budget, self.start, self.reserve, self.clock = budget, start, reserve, clock
        self.deadline = start + budget
        self.skips: list[TimeSkip] = []

    def left(self, for_fixes: bool = False) -> float:
        return self.deadline - (0.0 if for_fixes else self.reserve) - self.clock()

    def elapsed(self) -> float:
        return self.clock() - self.start

    def fits(self, what: str, needs: float, for_fixes: bool = False) -> TimeSkip | None:
        """None when ``needs`` seconds fit in what is left, else the `TimeSkip` (recorded)."""
        left = self.left(for_fixes)
        if needs <= left:
            return None
        skip = TimeSkip(what, needs, left, self.budget + (needs - left))
        self.skips.append(skip)
        return skip

    def to_dict(self) -> dict[str, Any]:
        return {"budget": self.budget, "spent": self.elapsed(), "reserve_for_fixes": self.reserve,
                "skipped_for_time": [s.to_dict() for s in self.skips]}


def spent(budget: float, needs: float, remaining: float, what: str) -> str:
    """Why a fix trial was skipped for time, with the budget that would run it (the prefix
    "explain's budget was spent" marks it for the finding's evidence)."""
    would = _nice(budget + needs - max(remaining, 0.0))
    return (f"explain's budget was spent ({what} needs about {_seconds(needs)}, {_seconds(max(remaining, 0.0))} "
            f"left): raise budget= to {would} (--budget {would}) to measure it")


PROBE_WORDS = {
    "unrolled": "the unrolled-loop probe", "dead": "the dead-code probe", "precision": "the precision probe",
    "transfers": "the transfers probe", "donation": "the donation probe", "compile": "the compile-time probe",
    "retrace": "the recompilation probe", "dispatch": "the dispatch probe", "roofline": "the roofline probe",
    "kernels": "the kernel probe", "torch": "the PyTorch probe", "config": "the configuration probe",
}


def _seconds(x: float) -> str:
    return f"{x:.2g} s" if x < 10 else f"{x:.0f} s"


def _nice(x: float) -> str:
    """A budget a person would type, at least ``x``: whole seconds (5 s steps past 20 s)."""
    up = math.ceil(x) if x <= 20 else 5 * math.ceil(x / 5)
    return f"{up:g}"
