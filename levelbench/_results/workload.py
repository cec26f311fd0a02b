"""`WorkloadResult`: what one workload (at one point of a sweep) produced, as `levelbench run` records it."""

from __future__ import annotations

import dataclasses
from typing import Any

from .comparison import Comparison


@dataclasses.dataclass(frozen=True)
class WorkloadResult:
    """What one workload (at one point of a sweep) produced."""

    workload: str
    params: dict[str, Any]
    status: str  # "ok" | "failed" | "timeout" | "skipped" | "interrupted"
    comparison: Comparison | None = None
    error: str = ""
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "workload": self.workload,
            "params": self.params,
            "status": self.status,
            "comparison": self.comparison.to_dict() if self.comparison else None,
            "error": self.error,
            "duration": self.duration,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "WorkloadResult":
        c = d.get("comparison")
        return cls(d["workload"], dict(d.get("params", {})), d["status"],
                   Comparison.from_dict(c) if c else None, d.get("error", ""), d.get("duration", 0.0))
