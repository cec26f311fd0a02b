"""`diff_runs`: two recorded runs compared candidate by candidate, on the raw samples.

Each candidate's per-call samples from the two runs are independent, so the test is the
two-sided Mann-Whitney U test (rank-based: no assumption about the skewed timing distribution)
and the effect is the ratio of medians ``after / before`` with an unpaired bootstrap CI. A change
counts only if it is significant *and* at least ``min_effect`` (default 5%): with thousands of
samples a 0.5% drift is significant but not worth a failed CI job.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import numpy as np

from .._measuring.environment import differences
from .._values.stats import Interval, unpaired_ratio_ci
from ._open import StoreError
from ._records import Run, StoredResult

if TYPE_CHECKING:
    from ._store import Store

REGRESSION = "regression"
IMPROVEMENT = "improvement"
NO_CHANGE = "no change"
FAILED = "failed"  # ran before, fails now: counted with regressions by --fail-on-regression
MISSING = "missing"  # in one run only, or not run in one of them: nothing to compare
VERDICTS = (REGRESSION, FAILED, IMPROVEMENT, NO_CHANGE, MISSING)

# Above this many samples per side (or with ties) the normal approximation of U is used.
_EXACT_MAX = 30


@dataclasses.dataclass(frozen=True)
class CandidateChange:
    """One candidate of one workload (at one parameter point) in two runs.

    Attributes:
        before, after: median per-call time with its 95% CI in each run (None if absent).
        ratio: ``after / before`` ratio of medians with a bootstrap CI; > 1 is slower.
        p_value: two-sided Mann-Whitney U test on the raw samples.
        verdict: ``"regression"``, ``"improvement"``, ``"no change"``, ``"failed"`` or ``"missing"``.
        note: why there is nothing to compare, for ``failed`` and ``missing``.
    """

    workload: str
    params: dict[str, Any]
    candidate: str
    verdict: str
    framework: str = ""
    before: Interval | None = None
    after: Interval | None = None
    ratio: Interval | None = None
    p_value: float | None = None
    n_before: int = 0
    n_after: int = 0
    note: str = ""

    @property
    def change(self) -> float | None:
        """Relative change of the median, e.g. ``0.12`` for 12% slower."""
        return self.ratio.estimate - 1 if self.ratio else None

    def to_dict(self) -> dict[str, Any]:
        d = dataclasses.asdict(self)
        for k in ("before", "after", "ratio"):
            d[k] = getattr(self, k).to_dict() if getattr(self, k) else None
        return d


@dataclasses.dataclass(frozen=True)
class RunDiff:
    """The result of `diff_runs`; render it with ``levelbench diff`` or read ``changes``."""

    before: int
    after: int
    before_title: str
    after_title: str
    changes: tuple[CandidateChange, ...]
    environment_differences: tuple[str, ...]
    min_effect: float
    alpha: float

    def count(self, verdict: str) -> int:
        return sum(c.verdict == verdict for c in self.changes)

    @property
    def regressions(self) -> list[CandidateChange]:
        return [c for c in self.changes if c.verdict in (REGRESSION, FAILED)]

    @property
    def has_regression(self) -> bool:
        return bool(self.regressions)

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": "levelbench.diff",
            "version": 1,
            "before": self.before,
            "after": self.after,
            "min_effect": self.min_effect,
            "alpha": self.alpha,
            "environment_differences": list(self.environment_differences),
            "counts": {v: self.count(v) for v in VERDICTS},
            "changes": [c.to_dict() for c in self.changes],
        }


def diff_runs(before: Run, after: Run, *, min_effect: float = 0.05, alpha: float = 0.05,
              resamples: int = 2000) -> RunDiff:
    """Compare two runs (with results, from `Store.run`) candidate by candidate.

    Results are matched by workload and parameters. A candidate is a ``regression`` when the
    Mann-Whitney test rejects "no difference" at ``alpha`` and its median grew by at least
    ``min_effect``; an ``improvement`` when it shrank by the same factor (``1 / (1 + min_effect)``).

    Example:
        >>> from levelbench.store import open_store, diff_runs
        >>> store = open_store()                                          # doctest: +SKIP
        >>> d = diff_runs(store.run("latest~1"), store.run("latest"))      # doctest: +SKIP
        >>> d.has_regression                                              # doctest: +SKIP
        False
    """
    if not 0 <= min_effect < 10:
        raise ValueError(f"min_effect is a fraction >= 0 (0.05 = 5%), got {min_effect!r}")
    if not 0 < alpha < 1:
        raise ValueError(f"alpha must be a significance level between 0 and 1 (e.g. 0.05), got {alpha!r}")
    old = {r.key: r for r in before.results}
    new = {r.key: r for r in after.results}
    changes: list[CandidateChange] = []
    for key in list(old) + [k for k in new if k not in old]:
        a, b = old.get(key), new.get(key)
        changes.extend(_result_changes(a, b, before.id, after.id, min_effect, alpha, resamples))
    env_a = before.environment or _first_environment(before)
    env_b = after.environment or _first_environment(after)
    return RunDiff(before.id, after.id, before.title, after.title, tuple(changes),
                   tuple(differences(env_a, env_b)), min_effect, alpha)


def previous_run(store: "Store", after: Run, *, exclude: int | None = None) -> Run | None:
    """The latest recorded run before ``after`` that ran the same things: what ``levelbench diff``
    compares ``after`` with when no runs are named, and what ``pytest --levelbench-compare`` uses.

    "The same things" means the same kind of run (``run``, ``pytest``, ``compare``, ...) and at least
    one result that `diff_runs` pairs with one of ``after`` (same workload or test, parameters and
    kind of machine). Runs of other workloads in between are passed over, so two unrelated runs
    (two different tests saved one after the other) are never compared. ``after`` may be a run not
    in the store (``id`` 0, a pytest session not saved); ``exclude`` passes over one more run id
    (the session's own, while it is being recorded). None when there is no such run.
    """
    keys = {r.key for r in after.results}
    names = {r.workload for r in after.results}
    for listed in reversed(store.runs()):
        # "before" in the store's order, by start time (a merged or imported run takes its place by time)
        if listed.id == exclude or (after.id and (listed.started, listed.id) >= (after.started, after.id)):
            continue
        if listed.kind != after.kind or not names.intersection(listed.workloads):
            continue
        candidate = store.run(listed.id)
        if keys.intersection(r.key for r in candidate.results):
            return candidate
    return None


def runs_to_diff(store: "Store", before: int | str | None = None, after: int | str | None = None) -> tuple[Run, Run]:
    """The two runs ``levelbench diff [BEFORE [AFTER]]`` compares: ``after`` (default: the latest) and
    ``before`` (default: `previous_run` of it, the latest earlier run of the same workloads or tests).
    Runs are named as `Store.resolve` takes them (``3``, ``"latest"``, ``"latest~1"``).

    Raises:
        StoreError: a run named that is not there, or no earlier run of the same workloads.

    Example:
        >>> before, after = runs_to_diff(open_store())                 # doctest: +SKIP
        >>> diff_runs(before, after).has_regression                    # doctest: +SKIP
        False
    """
    later = store.run(after if after is not None else "latest")
    if before is not None:
        return store.run(before), later
    found = previous_run(store, later)
    if found is None:
        named = ", ".join(later.workloads[:3]) or "no results"
        raise StoreError(
            f"expected an earlier {later.kind!r} run of the same workloads as run {later.id} "
            f"({named}{', ...' if len(later.workloads) > 3 else ''}) in {store.path}, got none: record another "
            f"one, or name the two runs, e.g. levelbench diff {max(later.id - 1, 1)} {later.id}")
    return found, later


def _first_environment(run: Run) -> dict[str, Any]:
    return next((r.comparison.environment for r in run.results if r.comparison), {})


def _result_changes(a: StoredResult | None, b: StoredResult | None, id_a: int, id_b: int, min_effect: float,
                    alpha: float, resamples: int) -> list[CandidateChange]:
    some = a or b
    assert some is not None
    names_a = list(a.comparison.measurements) if a and a.comparison else []
    names_b = list(b.comparison.measurements) if b and b.comparison else []
    names = names_a + [n for n in names_b if n not in names_a] or [""]

    def missing(name: str, verdict: str, note: str) -> CandidateChange:
        m = (a.comparison.measurements.get(name) if a and a.comparison else None) or \
            (b.comparison.measurements.get(name) if b and b.comparison else None)
        return CandidateChange(some.workload, some.params, name, verdict, m.framework if m else "", note=note)

    if a is None or b is None:
        where = id_a if a else id_b
        return [missing(n, MISSING, f"only in run {where}") for n in names]
    if a.status != "ok" or b.status != "ok":
        if a.status == "ok":
            return [missing(n, FAILED, f"{b.status} in run {id_b}: {_first_line(b.error)}") for n in names]
        which = f"{a.status} in run {id_a}" + (f", {b.status} in run {id_b}" if b.status != "ok" else "")
        return [missing(n, MISSING, which) for n in names]
    out = []
    for name in names:
        ma, mb = a.comparison.measurements.get(name), b.comparison.measurements.get(name)  # type: ignore[union-attr]
        if ma is None or mb is None:
            out.append(missing(name, MISSING, f"only in run {id_a if ma else id_b}"))
            continue
        p = mann_whitney_u(ma.samples, mb.samples)
        ratio = unpaired_ratio_ci(mb.samples, ma.samples, confidence=1 - alpha, resamples=resamples)
        out.append(CandidateChange(a.workload, a.params, name, _verdict(p, ratio.estimate, min_effect, alpha),
                                   mb.framework, ma.ci, mb.ci, ratio, p, ma.n_samples, mb.n_samples))
    return out


def _verdict(p: float, ratio: float, min_effect: float, alpha: float) -> str:
    if p >= alpha:
        return NO_CHANGE
    if ratio >= 1 + min_effect:
        return REGRESSION
    if ratio <= 1 / (1 + min_effect):
        return IMPROVEMENT
    return NO_CHANGE


def _first_line(text: str) -> str:
    return text.strip().splitlines()[0] if text.strip() else "no reason recorded"


def mann_whitney_u(x: Sequence[float], y: Sequence[float]) -> float:
    """Two-sided p-value of the Mann-Whitney U test that ``x`` and ``y`` come from one distribution.

    Exact (the U distribution by counting) for up to 30 samples a side without ties, else the
    normal approximation with tie and continuity corrections (as ``scipy.stats.mannwhitneyu``).
    """
    a = np.asarray(x, dtype=float)
    b = np.asarray(y, dtype=float)
    n1, n2 = len(a), len(b)
    if n1 == 0 or n2 == 0:
        raise ValueError(f"mann_whitney_u needs samples on both sides, got {n1} and {n2}")
    both = np.concatenate([a, b])
    ranks = _average_ranks(both)
    u1 = float(ranks[:n1].sum() - n1 * (n1 + 1) / 2)
    u = min(u1, n1 * n2 - u1)
    _, counts = np.unique(both, return_counts=True)
    ties = bool((counts > 1).any())
    if not ties and max(n1, n2) <= _EXACT_MAX:
        dist = _u_distribution(n1, n2)
        return float(min(1.0, 2 * dist[: int(round(u)) + 1].sum() / dist.sum()))
    n = n1 + n2
    tie_term = float((counts ** 3 - counts).sum()) / (n * (n - 1))
    sigma = math.sqrt(n1 * n2 / 12 * ((n + 1) - tie_term))
    if sigma == 0:
        return 1.0
    z = (abs(u1 - n1 * n2 / 2) - 0.5) / sigma
    return float(min(1.0, math.erfc(max(z, 0.0) / math.sqrt(2))))


def _average_ranks(values: np.ndarray) -> np.ndarray:
    """Ranks 1..n, ties sharing their average rank."""
    order = np.argsort(values, kind="mergesort")
    inverse = np.empty(len(values), dtype=int)
    inverse[order] = np.arange(len(values))
    ordered = values[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    group = starts.cumsum()[inverse]
    bounds = np.r_[np.nonzero(starts)[0], len(values)]
    return 0.5 * (bounds[group] + bounds[group - 1] + 1)


def _u_distribution(m: int, n: int) -> np.ndarray:
    """Counts of each U = 0..m*n under the null: the coefficients of the Gaussian binomial [m+n, m]_q."""
    size = m * n + 1
    c = np.zeros(size)
    c[0] = 1.0
    for i in range(1, m + 1):
        k = n + i  # multiply by (1 - q^k) ...
        if k < size:
            c[k:] = c[k:] - c[:-k].copy()
        for r in range(i):  # ... and divide by (1 - q^i): a running sum with stride i
            c[r::i] = np.cumsum(c[r::i])
    return c
