"""`FixTrial`: what happened when a finding's fix was applied, and how a finding's evidence says it.

Shared by the trials run in this process (`fixes`: a variant timed beside the call as given) and
the ones run in other processes (`process_trials`: the compilation cache, XLA's dot alternatives).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from typing import Any

from .._values.units import fmt_time

MEASURED, REFUSED, SKIPPED, PROJECTED, FAILED = "measured", "refused", "skipped", "projected", "failed"
# How a trial was measured: compare's interleaved rounds (the default); one compile in each of two
# fresh processes (no CI); XLA's ways to compile the program, each timed against its default.
INTERLEAVED, PROCESSES, ALTERNATIVES = "interleaved", "processes", "alternatives"


@dataclasses.dataclass(frozen=True)
class FixTrial:
    """What happened when a finding's fix was applied: measured, refused, skipped, failed or projected.

    ``speedup`` is original time / fixed time (> 1: the fix is faster), with its 95% CI
    ``speedup_low``-``speedup_high`` from compare's interleaved rounds. ``kind`` "processes" (the
    compilation cache): ``original``/``fixed`` are first- and second-process compile seconds, with
    no CI. ``kind`` "alternatives" (XLA's dot options): every alternative measured is in
    ``alternatives``; the figures are those of the fastest one kept (None when none beat the default).
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
    kind: str = INTERLEAVED
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
                    f"the next one with {self.expression} ({how}, one compile per process, no CI)"
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
        # a list, as JSON gives it back: Diagnosis.from_dict(to_dict()) keeps the same data
        return {**dataclasses.asdict(self), "alternatives": list(self.alternatives), "verdict": self.verdict}


def fastest(alternatives: Sequence[dict[str, Any]]) -> dict[str, Any] | None:
    """The measured alternative with the lowest time ratio among those faster than XLA's default, or None."""
    faster = [m for m in alternatives if m["faster"]]
    return min(faster, key=lambda m: m["ratio"]) if faster else None


def _alternatives_text(t: FixTrial) -> str:
    listed = ", ".join(f"{m['name']} {1 / m['ratio']:.3g}x (95% CI {1 / m['upper']:.3g}-{1 / m['lower']:.3g}x)"
                       + ("" if m["agree"] else ", OUTPUTS DIFFER") for m in t.alternatives)
    best = fastest(t.alternatives)
    if best is not None:
        verdict = f"faster: {best['name']}, {fmt_time(best['seconds'])} against {fmt_time(t.original)} per call"
    else:
        verdict = "none is faster than XLA's default (and its noise floor) at 95%"
    return (f"measured XLA alternatives on the whole program ({fmt_time(t.original)} as compiled by default), each "
            f"compiled from it in a worker process of its own, outputs checked first: {listed} (speed-ups); "
            f"{verdict}" + (f"; {t.note}" if t.note else ""))


def first_line(e: BaseException) -> str:
    text = str(e).strip().splitlines()
    return text[0] if text else ""
