"""Terminal rendering of run listings and run diffs. Renderers only read results."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from .._values.units import fmt_time
from ..store import FAILED, IMPROVEMENT, MISSING, NO_CHANGE, REGRESSION, CandidateChange, RunDiff, Run, params_text

_VERDICT_STYLE = {REGRESSION: "bold red", FAILED: "bold red", IMPROVEMENT: "bold green", NO_CHANGE: "", MISSING: "dim"}
_STATUS_STYLE = {"ok": "green", "running": "yellow", "interrupted": "yellow", "failed": "red"}


def render_history(runs: Sequence[Run]) -> Any:
    from rich.table import Table
    from rich.text import Text

    t = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("id", "started", "kind", "status", "git", "workloads", "machine", "levelbench", "jax", "torch"):
        t.add_column(column, justify="right" if column == "id" else "left")
    for r in runs:
        versions = r.versions
        t.add_row(
            str(r.id), r.started_text, r.kind, Text(r.status, style=_STATUS_STYLE.get(r.status, "")),
            Text(r.git_commit or "-"), Text(_workloads(r) + (f"  [{r.label}]" if r.label else "")), Text(r.machine),
            versions.get("levelbench", "-"), versions.get("jax", "-"), versions.get("torch", "-"),
        )
    return t


def _workloads(run: Run) -> str:
    if not run.workload_counts:
        return "(no results)"
    return ", ".join(f"{w} x{n}" if n > 1 else w for w, n in run.workload_counts.items())


def render_diff(diff: RunDiff) -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    parts: list[Any] = [Text(f"{diff.before_title}  ->  {diff.after_title}", style="bold")]
    if diff.environment_differences:
        parts.append(Text(f"warning: the environments differ ({len(diff.environment_differences)}), "
                          "so part of any change may come from them:", style="yellow"))
        parts.extend(Text(f"  {d}", style="yellow") for d in diff.environment_differences)
    t = Table(box=None, header_style="bold", pad_edge=False)
    for column in ("workload", "params", "candidate", "before", "after", "change [95% CI]", "p", "verdict"):
        t.add_column(column, justify="right" if column in ("before", "after", "p") else "left")
    for c in diff.changes:
        t.add_row(Text(c.workload), Text(params_text(c.params)), Text(c.candidate or "-"),
                  fmt_time(c.before.estimate) if c.before else "-", fmt_time(c.after.estimate) if c.after else "-",
                  change_text(c), p_text(c.p_value),
                  Text(c.verdict + (f" ({c.note})" if c.note else ""), style=_VERDICT_STYLE[c.verdict]))
    parts.append(t)
    parts.append(Text(summary(diff)))
    return Group(*parts)


def change_text(c: CandidateChange) -> str:
    if c.ratio is None:
        return "-"
    r = c.ratio
    return f"{r.estimate - 1:+.1%} [{r.lower - 1:+.1%}, {r.upper - 1:+.1%}]"


def p_text(p: float | None) -> str:
    if p is None:
        return "-"
    return "<0.001" if p < 0.001 else f"{p:.3f}"


_SUMMARY = ((REGRESSION, "regression", "regressions"), (FAILED, "failed", "failed"),
            (IMPROVEMENT, "improvement", "improvements"), (NO_CHANGE, "no change", "no change"),
            (MISSING, "not compared", "not compared"))


def summary(diff: RunDiff) -> str:
    parts = []
    for verdict, one, many in _SUMMARY:
        n = diff.count(verdict)
        if n or verdict == REGRESSION:  # always say how many regressions, even none
            parts.append(f"{n} {one if n == 1 else many}")
    return (f"{', '.join(parts)} (a change counts when Mann-Whitney p < {diff.alpha:g} and the median moved by "
            f"at least {diff.min_effect:.0%})")
