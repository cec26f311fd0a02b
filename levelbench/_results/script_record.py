"""A `ScriptAudit` as results of a run in the store (kind ``doctor-run``), and read back.

Each timed interval is one stored result. Its comparison has one candidate, ``as timed``: the samples
the script's own clock measured (what the script reports; not a fair figure), with the interval's
findings. The interval itself (samples with their compile and pending seconds, the fair figure or why
there is none, the source) and the audit's outline (script, status, exit code, the framework ratios)
ride in the comparison's document under `DOCUMENT_KEY`: the schema is unchanged, and a reader that
does not know the key (``diff``, ``export``, an older levelbench) sees an ordinary one-candidate result.

    >>> results = interval_results(audit)            # doctest: +SKIP
    >>> [r.workload for r in results]                # doctest: +SKIP
    ['bench.py lines 5-7', 'bench.py lines 9-11']
"""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

from .._values.findings import Finding
from .comparison import Comparison
from .measurement import Measurement
from .script_audit import FairFigure, Sample, ScriptAudit, TimedInterval
from .workload import WorkloadResult

RUN_KIND = "doctor-run"
DOCUMENT_KEY = "script_audit"
"""The key of a stored comparison's document that holds the interval (`interval_document`)."""
AS_TIMED = "as timed"
"""The candidate that holds what the script's own clock measured."""


@dataclasses.dataclass(frozen=True)
class IntervalResult(WorkloadResult):
    """One timed interval as a result of a run: a `WorkloadResult` whose stored document also holds
    ``document`` (`interval_document`) under `DOCUMENT_KEY`."""

    document: dict[str, Any] = dataclasses.field(default_factory=dict)

    def to_dict(self) -> dict[str, Any]:
        doc = super().to_dict()
        if doc["comparison"] is not None:
            doc["comparison"][DOCUMENT_KEY] = self.document
        return doc


def workload_name(audit: ScriptAudit, interval: TimedInterval) -> str:
    """``bench.py lines 5-7``: the script's file name and the interval's lines."""
    return f"{Path(audit.script).name} {interval.lines}"


def outline(audit: ScriptAudit) -> dict[str, Any]:
    """The audit without its intervals (script, argv, status, exit code, seconds, ratios), as stored."""
    doc = audit.to_dict()
    doc.pop("intervals")
    doc.pop("output")  # the script's own output is not a result
    return doc


def interval_document(audit: ScriptAudit, interval: TimedInterval) -> dict[str, Any]:
    return {"interval": interval.to_dict(), "audit": outline(audit)}


def interval_results(audit: ScriptAudit, environment: dict[str, Any] | None = None) -> list[IntervalResult]:
    """One result per timed interval of ``audit`` (an interval without a sample has none to keep)."""
    out = []
    for interval in audit.intervals:
        if not interval.samples:
            continue
        name = workload_name(audit, interval)
        framework = interval.fair.framework if interval.fair is not None and interval.fair.framework else "python"
        first = interval.samples[0]
        measured = Measurement(
            label=AS_TIMED, framework=framework, samples=tuple(s.measured for s in interval.samples),
            calls_per_sample=1, first_call=first.measured, compile_in_first_call=first.compile,
            total_time=sum(s.measured for s in interval.samples), findings=interval.findings,
            environment=dict(environment or {}),
        )
        comparison = Comparison(
            baseline=AS_TIMED, measurements={AS_TIMED: measured}, rounds={AS_TIMED: measured.samples},
            notes={AS_TIMED: f"the script's own {interval.clock} difference, {interval.lines}: not a fair figure"},
            environment=dict(environment or {}), title=name,
        )
        out.append(IntervalResult(name, {}, "ok", comparison, duration=measured.total_time,
                                  document=interval_document(audit, interval)))
    return out


def run_status(audit: ScriptAudit) -> tuple[str, str]:
    """The stored run's status and why, from how the script ended: ``ok`` when it finished;
    ``interrupted`` for Ctrl-C; otherwise ``partial`` (what ran before is kept) or ``failed`` when
    not one interval was timed before it stopped."""
    if audit.status == "finished":
        return "ok", ""
    if audit.status == "interrupted":
        return "interrupted", f"interrupted: {audit.error}" if audit.error else "interrupted"
    why = {
        "timeout": f"stopped at the time limit after {audit.wall_s:.1f} s",
        "exited": f"the script exited with status {audit.exit_code}",
        "raised": f"the script raised {audit.error}",
        "died": f"the script ended without a word (exit status {audit.exit_code})",
    }.get(audit.status, f"the script ended {audit.status}")
    timed = any(i.samples for i in audit.intervals)
    return ("partial" if timed else "failed"), why + ("; what ran before is recorded" if timed else "")


# -- read back ----------------------------------------------------------------------------------------
def interval_from_dict(d: dict[str, Any]) -> TimedInterval:
    """The `TimedInterval` of a stored ``interval`` document (`TimedInterval.to_dict`)."""
    sample_fields = {f.name for f in dataclasses.fields(Sample)}
    samples = tuple(Sample(**{k: v for k, v in s.items() if k in sample_fields}) for s in d.get("samples", ()))
    fair = d.get("fair")
    return TimedInterval(
        opening_line=int(d["opening_line"]), closing_line=int(d["closing_line"]), clock=d.get("clock", ""),
        samples=samples, via_timeit=bool(d.get("via_timeit")), loop_inside=bool(d.get("loop_inside")),
        findings=tuple(Finding.from_dict(f) for f in d.get("findings", ())), source=d.get("source", ""),
        fair=FairFigure(**fair) if fair else None, fair_note=d.get("fair_note", ""),
        magic=d.get("magic", ""), times_compilation=d.get("times_compilation", ""),
    )


def stored_interval(document: dict[str, Any] | None) -> tuple[TimedInterval, dict[str, Any]] | None:
    """A stored result's `DOCUMENT_KEY` document read back: the interval and the audit's outline (None: not a
    ``doctor --run`` result)."""
    if not document or "interval" not in document:
        return None
    return interval_from_dict(document["interval"]), dict(document.get("audit") or {})
