"""Assertions on timing ratios that fail with the measured numbers in the message.

``levelbench.compare(...).ratio("jax", "torch")`` is an `Interval`; in a test it becomes a `Ratio`
whose bounds remember where they came from, so that when ``assert r.upper < 1.2`` fails the
plugin's ``pytest_assertrepr_compare`` hook can print the comparison's table instead of two bare
floats. A `Ratio` also compares directly, conservatively, on the side of its CI that matters::

    assert r < 1.2    # means r.upper < 1.2: faster than 1.2x with 95% confidence
    assert r > 1.0    # means r.lower > 1.0: slower than the baseline with 95% confidence
"""

from __future__ import annotations

from typing import Any

from .._results.comparison import Comparison
from .._values.stats import Interval
from .._values.units import fmt_time


class Bound(float):
    """A float (an estimate or a CI bound of a `Ratio`) that knows which ratio it belongs to."""

    ratio: "Ratio"
    which: str

    def __new__(cls, value: float, ratio: "Ratio", which: str) -> "Bound":
        self = super().__new__(cls, value)
        self.ratio, self.which = ratio, which
        return self

    def __repr__(self) -> str:
        return f"{float(self):.4g}"


class Ratio:
    """``time(name) / time(baseline)`` with its 95% CI, from an interleaved `Comparison`.

    ``r < x`` is ``r.upper < x`` and ``r > x`` is ``r.lower > x`` (likewise ``<=``, ``>=``): a
    claim holds only if the whole confidence interval supports it.
    """

    def __init__(self, interval: Interval, name: str, baseline: str, comparison: Comparison) -> None:
        self.interval, self.name, self.baseline, self.comparison = interval, name, baseline, comparison

    @property
    def estimate(self) -> Bound:
        return Bound(self.interval.estimate, self, "estimate")

    @property
    def lower(self) -> Bound:
        return Bound(self.interval.lower, self, "lower")

    @property
    def upper(self) -> Bound:
        return Bound(self.interval.upper, self, "upper")

    @property
    def confidence(self) -> float:
        return self.interval.confidence

    def contains(self, value: float) -> bool:
        return self.interval.contains(value)

    def __lt__(self, other: float) -> bool:
        return self.interval.upper < other

    def __le__(self, other: float) -> bool:
        return self.interval.upper <= other

    def __gt__(self, other: float) -> bool:
        return self.interval.lower > other

    def __ge__(self, other: float) -> bool:
        return self.interval.lower >= other

    def __repr__(self) -> str:
        i = self.interval
        return (f"Ratio({self.name}/{self.baseline} = {i.estimate:.3g}, "
                f"{i.confidence:.0%} CI {i.lower:.3g} .. {i.upper:.3g})")


class CheckedComparison:
    """A `levelbench.Comparison` whose ``ratio()`` gives a `Ratio`; everything else is the comparison's."""

    def __init__(self, comparison: Comparison) -> None:
        self.comparison = comparison

    def ratio(self, name: str, baseline: str | None = None) -> Ratio:
        base = baseline or self.comparison.baseline
        return Ratio(self.comparison.ratio(name, base), name, base, self.comparison)

    def __getattr__(self, attr: str) -> Any:
        if attr == "comparison":  # not set yet (copy, pickle): do not recurse
            raise AttributeError(attr)
        return getattr(self.comparison, attr)

    def __rich__(self) -> Any:
        return self.comparison.__rich__()

    def __str__(self) -> str:
        return str(self.comparison)

    def __repr__(self) -> str:
        return f"<levelbench comparison of {', '.join(self.comparison.names)}>"


def explain(op: str, left: Any, right: Any) -> list[str] | None:
    """The lines pytest shows when ``assert <ratio or bound> <op> <number>`` fails, else None."""
    if isinstance(left, (Ratio, Bound)):
        subject, other, shown = left, right, op
    elif isinstance(right, (Ratio, Bound)):
        subject, other, shown = right, left, {"<": ">", "<=": ">=", ">": "<", ">=": "<="}.get(op, op)
    else:
        return None
    ratio = subject.ratio if isinstance(subject, Bound) else subject
    i = ratio.interval
    if isinstance(subject, Bound):
        what = {"estimate": "estimate", "lower": "lower bound", "upper": "upper bound"}[subject.which]
        head = f"{ratio.name}/{ratio.baseline} time ratio {what} {float(subject):.3g} {shown} {other!r}"
    else:
        side = "upper" if shown in ("<", "<=") else "lower"
        head = f"{ratio.name}/{ratio.baseline} time ratio {shown} {other!r} (compared by its CI's {side} bound)"
    ci = (f"{ratio.name} takes {i.estimate:.3g}x the time of {ratio.baseline}, "
          f"{i.confidence:.0%} CI {i.lower:.3g} .. {i.upper:.3g}")
    warnings = [f"{f.code} {f.title}" for f in ratio.comparison.findings if f.code == "LB305"]
    return [head, ci, *table(ratio.comparison, ratio.baseline), *warnings]


def table(c: Comparison, baseline: str | None = None) -> list[str]:
    """A compact plain-text table (fits pytest's 8-line assertion message for up to 5 candidates)."""
    base = baseline or c.baseline
    rows = [("candidate", "steady median", "95% CI", f"ratio to {base}", "verdict")]
    for name, m in c.measurements.items():
        if name == base:
            ratio, verdict = "1", "baseline"
        else:
            r = c.ratio(name, base)
            ratio, verdict = f"{r.estimate:.3g} ({r.lower:.3g}-{r.upper:.3g})", c.verdict(name, base)
        rows.append((f"{name} ({m.framework})", fmt_time(m.median), f"{fmt_time(m.ci.lower)}-{fmt_time(m.ci.upper)}",
                     ratio, verdict))
    widths = [max(len(row[k]) for row in rows) for k in range(len(rows[0]))]
    return ["  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip() for row in rows]
