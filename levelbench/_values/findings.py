"""`Finding`: one thing levelbench found wrong, shared by measure, compare, doctor and explain.

A finding says what is wrong (``title``), the measured or observed ``evidence``, what it costs
(``cost``, free text with numbers where they are known) and the ``fix``, as code where possible.
"""

from __future__ import annotations

import dataclasses
import enum
from typing import Any


class Severity(enum.IntEnum):
    """How much a finding matters. Ordered, so ``finding.severity >= Severity.WARNING`` works."""

    INFO = 10
    WARNING = 20
    ERROR = 30

    @classmethod
    def parse(cls, text: str) -> "Severity":
        try:
            return cls[text.strip().upper()]
        except KeyError:
            accepted = ", ".join(s.name.lower() for s in cls)
            raise ValueError(f"unknown severity {text!r}: expected one of {accepted}") from None


@dataclasses.dataclass(frozen=True, slots=True)
class Finding:
    """One diagnosed problem.

    Attributes:
        code: stable identifier, e.g. ``"LB001"`` (measure), ``"LB1xx"`` (static doctor),
            ``"LB2xx"`` (dynamic doctor), ``"LB3xx"`` (compare).
        title: one line naming the culprit.
        severity: ``Severity.INFO`` / ``WARNING`` / ``ERROR``.
        evidence: what was measured or seen, with numbers.
        cost: the estimated cost (e.g. ``"~12 s of compile per call"``), empty if unknown.
        fix: how to fix it, code where possible.
        subject: what it is about (a candidate name, an argument path, a file position).
        data: machine-readable numbers behind the evidence.
    """

    code: str
    title: str
    severity: Severity = Severity.WARNING
    evidence: str = ""
    cost: str = ""
    fix: str = ""
    subject: str = ""
    data: dict[str, Any] = dataclasses.field(default_factory=dict, compare=False, hash=False)

    def to_dict(self) -> dict[str, Any]:
        return {
            "code": self.code,
            "title": self.title,
            "severity": self.severity.name.lower(),
            "evidence": self.evidence,
            "cost": self.cost,
            "fix": self.fix,
            "subject": self.subject,
            "data": dict(self.data),
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "Finding":
        return cls(
            code=d["code"],
            title=d["title"],
            severity=Severity.parse(d.get("severity", "warning")),
            evidence=d.get("evidence", ""),
            cost=d.get("cost", ""),
            fix=d.get("fix", ""),
            subject=d.get("subject", ""),
            data=dict(d.get("data", {})),
        )

    def __str__(self) -> str:
        where = f"{self.subject}: " if self.subject else ""
        return f"{self.code} {where}{self.title}"
