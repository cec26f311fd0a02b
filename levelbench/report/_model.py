"""What a report shows, grouped: one `WorkloadSection` per workload, with its sweep and its history.

Results of one workload at several parameter values within one run form a sweep (``levelbench
run --workload gru --seq 25,50,100`` records four); the parameter that varies and is numeric
becomes the x axis. The same workload in several runs gives its history.
"""

from __future__ import annotations

import dataclasses
import numbers
from collections.abc import Sequence
from typing import Any

from .._results.measurement import Measurement
from ..store import Run, StoredResult, params_key


@dataclasses.dataclass(frozen=True)
class WorkloadSection:
    """One workload in a report.

    Attributes:
        name: the workload.
        index: its position in the report (for anchors; user text never becomes an id).
        run: the newest of the given runs that has it; tables and plots show this run.
        points: that run's results for it, sorted along the sweep axis when there is one.
        varying: the parameters whose values differ between points.
        axis: the numeric parameter plotted on the x axis of sweep plots, if any.
        history: every given run that has it with its results there, oldest first.
    """

    name: str
    index: int
    run: Run
    points: tuple[StoredResult, ...]
    varying: tuple[str, ...]
    axis: str | None
    history: tuple[tuple[Run, tuple[StoredResult, ...]], ...]

    @property
    def anchor(self) -> str:
        return f"workload-{self.index}"

    @property
    def is_sweep(self) -> bool:
        return len(self.points) > 1

    @property
    def ok_points(self) -> list[StoredResult]:
        return [p for p in self.points if p.status == "ok" and p.comparison is not None]

    @property
    def headline(self) -> StoredResult | None:
        """The point shown when one is needed: the last (largest) successful one."""
        ok = self.ok_points
        return ok[-1] if ok else None

    def point_label(self, result: StoredResult) -> str:
        keys = self.varying or tuple(result.params)
        return ", ".join(f"{k}={result.params.get(k)}" for k in keys)

    def series_label(self, result: StoredResult) -> str:
        """The varying parameters other than the x axis (one line per value in sweep plots)."""
        return ", ".join(f"{k}={result.params.get(k)}" for k in self.varying if k != self.axis)

    @property
    def candidates(self) -> list[str]:
        names = list(dict.fromkeys(n for _, results in self.history for r in results if r.comparison
                                   for n in r.comparison.measurements))
        return sorted(names, key=lambda n: (framework_rank(self.framework(n)), names.index(n)))

    def framework(self, candidate: str) -> str:
        for m in self.measurements(candidate):
            return m.framework
        return ""

    def measurements(self, candidate: str) -> list[Measurement]:
        return [m for _, results in self.history for r in results if r.comparison
                for n, m in r.comparison.measurements.items() if n == candidate]

    @property
    def has_history(self) -> bool:
        return len(self.history) > 1


FRAMEWORK_ORDER = ("jax", "torch", "numpy", "python")


def framework_rank(framework: str) -> int:
    return FRAMEWORK_ORDER.index(framework) if framework in FRAMEWORK_ORDER else len(FRAMEWORK_ORDER)


def sections(runs: Sequence[Run]) -> list[WorkloadSection]:
    """Group the runs' results by workload (in order of first appearance)."""
    ordered = sorted(runs, key=lambda r: r.id)
    names = list(dict.fromkeys(r.workload for run in ordered for r in run.results))
    out = []
    for i, name in enumerate(names):
        history = tuple((run, tuple(r for r in run.results if r.workload == name)) for run in ordered
                        if any(r.workload == name for r in run.results))
        run, points = history[-1]
        varying = _varying(points)
        axis = next((k for k in varying if all(_is_number(p.params.get(k)) for p in points)), None)
        if axis:
            points = tuple(sorted(points, key=lambda p: (p.params[axis], params_key(p.params))))
        out.append(WorkloadSection(name, i + 1, run, points, varying, axis, history))
    return out


def _varying(points: Sequence[StoredResult]) -> tuple[str, ...]:
    keys = dict.fromkeys(k for p in points for k in p.params)
    return tuple(k for k in keys if len({repr(p.params.get(k)) for p in points}) > 1)


def _is_number(value: Any) -> bool:
    return isinstance(value, numbers.Real) and not isinstance(value, bool)
