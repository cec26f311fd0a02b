"""A measured quantity against a fixed threshold, decided on its confidence interval.

A finding decided by a point estimate near its threshold is a coin toss: the same call on the
same code is reported in one run and missed in the next. Here the whole 95% interval decides:

- `Verdict.PAST`: the whole interval is past the threshold: the finding is reported;
- `Verdict.SHORT`: the whole interval is short of it: nothing is reported;
- `Verdict.BORDERLINE`: the interval straddles it: the finding is reported as a note (severity at
  most INFO), marked borderline (``finding.data["borderline"]`` and the title say so, with the
  interval and the severity it would have had past the threshold). A warning claims something is
  wrong; a measurement that cannot tell which side of the threshold it is on cannot claim it, and
  its warnings would come and go between runs. So the warnings of a report do not flip when the
  true value sits at a threshold: the finding is a note there, in every run that straddles.

Every threshold rule (LB003, LB004, LB240, LB262, LB270, ...) decides through `against` and
`judge`, so there is one meaning of "borderline" everywhere.

Example:
    >>> from levelbench._values.stats import Interval
    >>> against(Interval(3.0, 2.5, 3.5), 2.0).name
    'PAST'
    >>> against(Interval(3.0, 1.5, 3.5), 2.0).name
    'BORDERLINE'
"""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Callable

from .findings import Finding, Severity
from .stats import Interval


class Verdict(enum.IntEnum):
    """Where an interval lies against a threshold; ordered so ``min`` of several is their conjunction."""

    SHORT = 0
    BORDERLINE = 1
    PAST = 2


def against(interval: Interval, threshold: float, above: bool = True) -> Verdict:
    """`Verdict` of ``interval`` against ``threshold``; ``above``: the finding is for values above it
    (``False``: below it, e.g. a time under 5x the dispatch floor)."""
    lower, upper = interval.lower, interval.upper
    if not above:
        lower, upper, threshold = -upper, -lower, -threshold
    if lower > threshold:
        return Verdict.PAST
    if upper <= threshold:
        return Verdict.SHORT
    return Verdict.BORDERLINE


def point(value: float) -> Interval:
    """An exact value (a count, or a figure measured once) as an interval of width zero."""
    return Interval(value, value, value)


@dataclasses.dataclass(frozen=True)
class Threshold:
    """One threshold a finding needs: ``quantity`` (its name in the report), the measured ``interval``,
    the ``threshold`` and its direction, and how to print a value (``fmt``)."""

    quantity: str
    interval: Interval
    threshold: float
    above: bool = True
    fmt: Callable[[float], str] = "{:.3g}".format

    @property
    def verdict(self) -> Verdict:
        return against(self.interval, self.threshold, self.above)

    def describe(self) -> str:
        i, f = self.interval, self.fmt
        return (f"{self.quantity} {f(i.estimate)} (95% CI {f(i.lower)}-{f(i.upper)}) against the threshold "
                f"{'>' if self.above else '<'} {f(self.threshold)}")

    def to_dict(self) -> dict[str, object]:
        return {"quantity": self.quantity, **self.interval.to_dict(), "threshold": self.threshold,
                "above": self.above}


def verdict(*tests: Threshold) -> Verdict:
    """All of ``tests`` together: SHORT if any is short, PAST if all are past, BORDERLINE otherwise."""
    return min((t.verdict for t in tests), default=Verdict.PAST)


def judge(finding: Finding | None, *tests: Threshold, doubt: str = "") -> list[Finding]:
    """``[finding]`` when every test is past its threshold, ``[]`` when one is wholly short, and
    ``[finding]`` marked borderline otherwise: at most INFO, its title ends ``(borderline)``,
    ``data["borderline"]`` lists the straddling tests with their intervals (the evidence names them)
    and ``data["severity_past"]`` the severity it has when past the threshold.

    ``doubt`` says why the intervals themselves cannot be trusted (the process lost its CPU while
    timing): a finding past its thresholds is then borderline too, with that reason."""
    if finding is None:
        return []
    v = verdict(*tests)
    if v is Verdict.SHORT:
        return []
    if v is Verdict.PAST and not doubt:
        return [finding]
    straddling = [t for t in tests if t.verdict is Verdict.BORDERLINE] or list(tests)
    said = "; ".join(t.describe() for t in straddling)
    why = (f"{doubt}, so the interval may be off" if v is Verdict.PAST else
           "the interval straddles the threshold" + (f" (and {doubt})" if doubt else ""))
    evidence = (finding.evidence + "\n" if finding.evidence else "") + (
        f"borderline: {said}: {why}, so another run may land either side")
    return [dataclasses.replace(finding, title=f"{finding.title} (borderline)", evidence=evidence,
                                severity=min(finding.severity, Severity.INFO),
                                data={**finding.data, "borderline": [t.to_dict() for t in straddling],
                                      "severity_past": finding.severity.name.lower()})]


def is_borderline(finding: Finding) -> bool:
    """The finding's measured quantity straddled its threshold (see `judge`)."""
    return bool(finding.data.get("borderline"))
