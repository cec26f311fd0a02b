"""`Diagnosis`: what `explain` found about one function, ranked most costly first, with the numbers."""

from __future__ import annotations

import dataclasses
import json
import math
from collections.abc import Iterable
from typing import Any

from .._values import display
from .._values.findings import Finding, Severity
from .._values.documents import check_format
from .._results.measurement import Measurement

FORMAT = "levelbench.diagnosis"
FORMAT_VERSION = 1


def cost_seconds(f: Finding) -> float:
    value = f.data.get("cost_seconds")
    return float(value) if isinstance(value, (int, float)) and value == value else 0.0


def rank(findings: Iterable[Finding]) -> tuple[Finding, ...]:
    """Warnings and errors before notes; within each, the largest ``data["cost_seconds"]`` first
    (unknown costs count as 0), then the more severe."""
    return tuple(sorted(findings, key=lambda f: (f.severity < Severity.WARNING, -cost_seconds(f), -f.severity)))


@dataclasses.dataclass(frozen=True)
class Diagnosis:
    """The ranked findings of `levelbench.explain` for one function, and what was measured.

    Attributes:
        label: the function diagnosed.
        framework: ``"jax"``, ``"torch"``, ``"numpy"`` or ``"python"``.
        findings: ranked most costly first (see `rank`); each carries ``data["cost_seconds"]``
            when its cost is known.
        measured: the numbers behind the findings: ``equations``, ``scale`` (lengths, equations,
            seconds, equations per step, projection), ``compile`` (trace/lower/compile split),
            ``first_call``, ``steady``, ``eager``, ``dispatches``, ``flops``, ``retrace``...
        probes: the probes that ran, in order.
        skipped: probe name -> why it did not run (not selected, quick mode, failed, budget).
        notes: remarks on how the diagnosis was made (e.g. the input was shortened).
        elapsed: seconds `explain` took.

    Example:
        >>> d = levelbench.explain(f, x)          # doctest: +SKIP
        >>> d.has("LB201"), d.findings[0].title   # doctest: +SKIP
    """

    label: str
    framework: str
    findings: tuple[Finding, ...] = ()
    measured: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False)
    probes: tuple[str, ...] = ()
    skipped: dict[str, str] = dataclasses.field(default_factory=dict, compare=False)
    notes: tuple[str, ...] = ()
    elapsed: float = 0.0

    @property
    def codes(self) -> tuple[str, ...]:
        return tuple(f.code for f in self.findings)

    def has(self, code: str) -> bool:
        return any(f.code == code for f in self.findings)

    def finding(self, code: str) -> Finding | None:
        """The highest-ranked finding with this code, if any."""
        return next((f for f in self.findings if f.code == code), None)

    @property
    def warnings(self) -> tuple[Finding, ...]:
        return tuple(f for f in self.findings if f.severity >= Severity.WARNING)

    def attach_to(self, measurement: Measurement) -> Measurement:
        """``measurement`` with these findings added (those it has already, same code and subject, kept once)."""
        seen = {(f.code, f.subject) for f in measurement.findings}
        extra = tuple(f for f in self.findings if (f.code, f.subject) not in seen)
        return dataclasses.replace(measurement, findings=measurement.findings + extra)

    # -- serialisation ---------------------------------------------------------------------------
    def to_dict(self) -> dict[str, Any]:
        return {
            "format": FORMAT,
            "version": FORMAT_VERSION,
            "label": self.label,
            "framework": self.framework,
            "findings": [_jsonable(f.to_dict()) for f in self.findings],
            "measured": _jsonable(self.measured),
            "probes": list(self.probes),
            "skipped": dict(self.skipped),
            "notes": list(self.notes),
            "elapsed": self.elapsed,
        }

    def to_json(self, indent: int | None = 2) -> str:
        return json.dumps(self.to_dict(), indent=indent)

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Diagnosis":
        check_format(d, FORMAT, FORMAT_VERSION, "diagnosis")
        return cls(
            label=d["label"],
            framework=d["framework"],
            findings=tuple(Finding.from_dict(f) for f in d.get("findings", ())),
            measured=dict(d.get("measured", {})),
            probes=tuple(d.get("probes", ())),
            skipped=dict(d.get("skipped", {})),
            notes=tuple(d.get("notes", ())),
            elapsed=float(d.get("elapsed", 0.0)),
        )

    def __rich__(self) -> Any:
        return display.renderable(self)

    def __str__(self) -> str:
        return display.text(self, width=100)


def _jsonable(x: Any) -> Any:
    """Numbers, strings, lists and dicts only (NumPy scalars become Python numbers, the rest strings)."""
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    if hasattr(x, "item") and not isinstance(x, (bool, int, float, str)):
        try:
            x = x.item()
        except (TypeError, ValueError):
            return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return None  # JSON has no inf / nan
    if x is None or isinstance(x, (bool, int, float, str)):
        return x
    return str(x)
