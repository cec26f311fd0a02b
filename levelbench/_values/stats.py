"""Robust statistics of timing samples.

The confidence interval of the median is distribution-free: it comes from order statistics
(the number of samples below the true median is Binomial(n, 1/2)), so it needs no assumption
about the shape of the timing distribution, which is usually skewed with a long right tail.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Iterator, Sequence

import numpy as np

Z95 = 1.959963984540054
# Resampled values drawn at once by a bootstrap: about 8 MB per array at float64, whatever the sample count.
# A bootstrap of n samples draws ``resamples x n`` indices, 16 GB for 2000 x 1,000,000 in one piece.
BOOTSTRAP_CHUNK = 1 << 20


@dataclasses.dataclass(frozen=True)
class Interval:
    """A point estimate with a confidence interval, e.g. a median or a ratio."""

    estimate: float
    lower: float
    upper: float
    confidence: float = 0.95

    @property
    def half_width(self) -> float:
        return (self.upper - self.lower) / 2

    @property
    def relative_half_width(self) -> float:
        """Largest distance from the estimate to a bound, relative to the estimate."""
        if self.estimate == 0:
            return math.inf
        return max(self.estimate - self.lower, self.upper - self.estimate) / abs(self.estimate)

    def contains(self, value: float) -> bool:
        return self.lower <= value <= self.upper

    def scaled(self, factor: float) -> "Interval":
        """The interval of ``factor`` times the quantity (``factor`` > 0), e.g. a time in dispatch floors."""
        return Interval(self.estimate * factor, self.lower * factor, self.upper * factor, self.confidence)

    def to_dict(self) -> dict[str, float]:
        return {"estimate": self.estimate, "lower": self.lower, "upper": self.upper, "confidence": self.confidence}

    @classmethod
    def from_dict(cls, d: dict[str, float]) -> "Interval":
        return cls(d["estimate"], d["lower"], d["upper"], d.get("confidence", 0.95))


def median_ci(samples: Sequence[float], confidence: float = 0.95) -> Interval:
    """Median with a distribution-free confidence interval from order statistics.

    For n samples the ranks ``n/2 -+ z*sqrt(n)/2`` (normal approximation of Binomial(n, 1/2))
    bound the true median with the requested confidence. With fewer than 6 samples the interval
    is the whole range, which is honest: 5 samples cannot pin a median to 95%.
    """
    x = np.sort(np.asarray(samples, dtype=float))
    n = len(x)
    if n == 0:
        raise ValueError("median_ci needs at least one sample, got none")
    med = float(np.median(x))
    if n < 6:
        return Interval(med, float(x[0]), float(x[-1]), confidence)
    z = _z(confidence)
    lo = max(int(math.floor(n / 2 - z * math.sqrt(n) / 2)), 0)
    hi = min(int(math.ceil(n / 2 + z * math.sqrt(n) / 2)), n - 1)
    return Interval(med, float(x[lo]), float(x[hi]), confidence)


def _z(confidence: float) -> float:
    if confidence == 0.95:
        return Z95
    from statistics import NormalDist  # stdlib, cheap

    return NormalDist().inv_cdf(0.5 + confidence / 2)


def iqr(samples: Sequence[float]) -> float:
    q1, q3 = np.percentile(np.asarray(samples, dtype=float), [25, 75])
    return float(q3 - q1)


def paired_ratio_ci(
    numerator: Sequence[float],
    denominator: Sequence[float],
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """Ratio of medians ``median(numerator) / median(denominator)`` with a paired bootstrap CI.

    The samples are paired by round (interleaved timing: round i of both candidates ran at about
    the same moment), so rounds are resampled together and drift that hits both cancels out.
    """
    a = np.asarray(numerator, dtype=float)
    b = np.asarray(denominator, dtype=float)
    n = min(len(a), len(b))
    if n == 0:
        raise ValueError("paired_ratio_ci needs samples on both sides, got none")
    a, b = a[:n], b[:n]
    estimate = float(np.median(a) / np.median(b))
    if n < 3:
        r = a / b
        return Interval(estimate, float(r.min()), float(r.max()), confidence)
    rng = np.random.default_rng(seed)
    ratios = np.concatenate([np.median(a[idx], axis=1) / np.median(b[idx], axis=1)
                             for idx in _resampled_indices(rng, n, resamples)])
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(ratios, [alpha, 1 - alpha])
    return Interval(estimate, float(min(lo, estimate)), float(max(hi, estimate)), confidence)


def unpaired_ratio_ci(
    numerator: Sequence[float],
    denominator: Sequence[float],
    confidence: float = 0.95,
    resamples: int = 2000,
    seed: int = 0,
) -> Interval:
    """Ratio of medians with an independent (unpaired) bootstrap: for samples from separate runs."""
    a = np.asarray(numerator, dtype=float)
    b = np.asarray(denominator, dtype=float)
    if len(a) == 0 or len(b) == 0:
        raise ValueError("unpaired_ratio_ci needs samples on both sides")
    estimate = float(np.median(a) / np.median(b))
    rng = np.random.default_rng(seed)
    # a's resamples are all drawn before b's, as one (resamples, n) draw each would take them
    ra = np.concatenate([np.median(a[idx], axis=1) for idx in _resampled_indices(rng, len(a), resamples)])
    rb = np.concatenate([np.median(b[idx], axis=1) for idx in _resampled_indices(rng, len(b), resamples)])
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(ra / rb, [alpha, 1 - alpha])
    return Interval(estimate, float(min(lo, estimate)), float(max(hi, estimate)), confidence)


def _resampled_indices(rng: np.random.Generator, n: int, resamples: int) -> Iterator[np.ndarray]:
    """The ``(resamples, n)`` bootstrap indices ``rng.integers(0, n, size=(resamples, n))`` would give, in
    blocks of rows of about `BOOTSTRAP_CHUNK` values: the same numbers in the same order (the generator's
    stream does not depend on how the draws are split), so memory stays bounded at any ``n``."""
    rows = max(1, BOOTSTRAP_CHUNK // n)
    for start in range(0, resamples, rows):
        yield rng.integers(0, n, size=(min(rows, resamples - start), n))


RELATIVE_IQR_SUBSAMPLE = 2000
"""Above this many samples `relative_iqr_ci` bootstraps a subsample of this size and narrows its
interval by sqrt(subsample / n) (the m-out-of-n bootstrap: a quantile's spread shrinks as 1/sqrt(n)),
so 100,000 samples cost what 2,000 do (about 0.1 s) rather than seconds."""


def relative_iqr_ci(samples: Sequence[float], confidence: float = 0.95, resamples: int = 500,
                    seed: int = 0) -> Interval:
    """IQR / median (the noise figure of LB003) with a bootstrap CI: the samples resampled with
    replacement ``resamples`` times (a fixed ``seed``, so the same samples give the same interval;
    above `RELATIVE_IQR_SUBSAMPLE` samples, a subsample, its interval rescaled).
    With fewer than 4 samples there is no quartile to resample: the interval is 0 .. inf."""
    x = np.asarray(samples, dtype=float)
    n = len(x)
    if n == 0:
        raise ValueError("relative_iqr_ci needs at least one sample, got none")
    med = float(np.median(x))
    estimate = iqr(x) / med if med else math.inf
    if n < 4 or not med:
        return Interval(estimate, 0.0, math.inf, confidence)
    rng = np.random.default_rng(seed)
    shrink = 1.0
    if n > RELATIVE_IQR_SUBSAMPLE:
        shrink = math.sqrt(RELATIVE_IQR_SUBSAMPLE / n)
        x = rng.choice(x, RELATIVE_IQR_SUBSAMPLE, replace=False)
    values = []
    for idx in _resampled_indices(rng, len(x), resamples):
        q1, q2, q3 = np.percentile(x[idx], [25, 50, 75], axis=1)
        values.append((q3 - q1) / np.where(q2 > 0, q2, np.nan))
    spread = np.concatenate(values)
    spread = spread[np.isfinite(spread)]
    if not len(spread):
        return Interval(estimate, 0.0, math.inf, confidence)
    alpha = (1 - confidence) / 2
    lo, hi = np.quantile(spread, [alpha, 1 - alpha])
    center = float(np.median(spread))  # the subsample's own estimate: its interval's distances scale
    lo, hi = estimate - shrink * (center - lo), estimate + shrink * (hi - center)
    return Interval(estimate, float(max(0.0, min(lo, estimate))), float(max(hi, estimate)), confidence)
