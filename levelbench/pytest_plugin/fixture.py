"""The ``levelbench`` fixture: `measure` and `compare` inside a test, recorded and summarised."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .assertions import CheckedComparison
from .._api import compare, measure
from .unmeasured import compare_once, measure_once


@dataclasses.dataclass(frozen=True)
class Record:
    """One result the fixture produced, and the test that produced it."""

    nodeid: str
    result: Measurement | Comparison


class Levelbench:
    """What a test gets from the ``levelbench`` fixture.

    ``measure`` and ``compare`` are `levelbench.measure` and `levelbench.compare`; the results are
    kept for the end-of-session summary and the session's stored run (``--levelbench-save``), and
    shown in full beside a failing test's report. ``compare(...).ratio(a, b)`` returns a `Ratio`
    whose failed assertions print the measured table. Under ``--levelbench-disable`` each function
    is called once, untimed, and stand-ins are returned (`levelbench.pytest_plugin.unmeasured`).

    Example:
        def test_scan_is_not_slower_than_torch(levelbench):
            c = levelbench.compare({"jax": (forward_scan, (params, x)), "torch": (model, (xt,))})
            assert c.ratio("jax", "torch").upper < 1.2   # fails with the table in the message
    """

    def __init__(self, nodeid: str, budget: float | None, record: Callable[[Record], None],
                 disabled: bool = False) -> None:
        self.nodeid = nodeid
        self.budget = budget  # --levelbench-budget, which overrides the budget= a test passes
        self.disabled = disabled  # --levelbench-disable: call once, untimed, return stand-ins
        self.results: list[Any] = []
        self._record = record

    def measure(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Measurement:
        """`levelbench.measure(fn, *args, **kwargs)`, recorded."""
        if self.disabled:
            stand_in = measure_once(fn, args, kwargs)
            self.results.append(stand_in)
            return stand_in  # type: ignore[return-value]  # duck-types Measurement

        if self.budget is not None:
            kwargs["budget"] = self.budget
        m = measure(fn, *args, **kwargs)
        self._keep(m)
        return m

    def compare(self, candidates: Mapping[str, Any], **kwargs: Any) -> CheckedComparison:
        """`levelbench.compare(candidates, **kwargs)`, recorded; ``.ratio()`` gives an assertable `Ratio`."""
        if self.disabled:
            stand_in = compare_once(candidates, kwargs)
            self.results.append(stand_in)
            return stand_in  # type: ignore[return-value]  # duck-types CheckedComparison

        if self.budget is not None:
            kwargs["budget"] = self.budget
        c = compare(candidates, **kwargs)
        self._keep(c)
        return CheckedComparison(c)

    def _keep(self, result: Measurement | Comparison) -> None:
        self.results.append(result)
        self._record(Record(self.nodeid, result))

    def report(self) -> str:
        """Every result of this test in full (tables and findings), as plain text."""
        return "\n\n".join(str(r) for r in self.results)
