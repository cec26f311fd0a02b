"""The report as Markdown tables, for pasting into an issue or a pull request."""

from __future__ import annotations

import html
from collections.abc import Sequence

from .._measuring.environment import differences
from .._values.findings import Severity
from .._values.units import fmt_time
from ..store import Run
from ._model import WorkloadSection, sections

_MARKDOWN_SPECIAL = "\\`*_[]|#~"


def md(value: object) -> str:
    """User text made inert in Markdown: specials backslash-escaped, HTML escaped, one line."""
    text = " ".join(str(value).split())
    text = "".join("\\" + ch if ch in _MARKDOWN_SPECIAL else ch for ch in text)
    return html.escape(text, quote=False)


def _row(cells: Sequence[object]) -> str:
    return "| " + " | ".join(str(c) for c in cells) + " |"


def _table(head: Sequence[str], rows: Sequence[Sequence[object]]) -> list[str]:
    aligned = ["---:" if h in _NUMERIC else "---" for h in head]
    return [_row(head), _row(aligned), *(_row(r) for r in rows)]


_NUMERIC = {"median", "95% CI", "vs baseline", "compile", "first call", "samples", "run"}


def markdown_report(runs: Run | Sequence[Run], title: str = "levelbench report") -> str:
    """The report of one or more recorded runs as GitHub-flavoured Markdown."""
    runs = [runs] if isinstance(runs, Run) else sorted(runs, key=lambda r: r.id)
    if not runs:
        raise ValueError("markdown_report needs at least one run, got none")
    out = [f"# {md(title)}", ""]
    out += _table(["run", "started", "status", "git", "levelbench", "jax", "torch", "CPU"], [
        [r.id, r.started_text, md(r.status), md(r.git_commit or "-"), md(r.versions.get("levelbench", "-")),
         md(r.versions.get("jax", "-")), md(r.versions.get("torch", "-")), md(r.environment.get("cpu", "-"))]
        for r in runs])
    for a, b in zip(runs, runs[1:]):
        diffs = differences(a.environment, b.environment)
        if diffs:
            out += ["", f"**The environment changed between run {a.id} and run {b.id}:**", ""]
            out += [f"- {md(d)}" for d in diffs]
    for s in sections(runs):
        out += ["", *_section(s)]
    return "\n".join(out) + "\n"


def _section(s: WorkloadSection) -> list[str]:
    swept = f", swept over {', '.join(md(k) for k in s.varying)}" if s.is_sweep else ""
    out = [f"## {md(s.name)}", "", f"Run {s.run.id}, {len(s.points)} point(s){swept}.", ""]
    head = (["point"] if s.is_sweep else []) + ["candidate", "framework", "median", "95% CI", "vs baseline",
                                                 "verdict", "compile", "first call", "samples"]
    rows = []
    for p in s.points:
        point = [md(s.point_label(p))] if s.is_sweep else []
        if p.comparison is None:
            rows.append(point + [f"**{md(p.status)}**: {md(p.error)}"] + [""] * (len(head) - len(point) - 1))
            continue
        c = p.comparison
        for n in [n for n in s.candidates if n in c.measurements]:
            m = c.measurements[n]
            r = c.ratios[n]
            compile_time = m.compile.total if m.compile else m.compile_in_first_call
            rows.append(point + [
                md(n), md(m.framework), fmt_time(m.median), f"{fmt_time(m.ci.lower)} .. {fmt_time(m.ci.upper)}",
                f"{r.estimate:.3g}x [{r.lower:.3g}, {r.upper:.3g}]", md(c.verdict(n)),
                fmt_time(compile_time) if compile_time else "-", fmt_time(m.first_call),
                f"{m.n_samples} x {m.calls_per_sample}",
            ])
    out += _table(head, rows)
    if s.has_history:
        out += ["", "History (median per call):", ""]
        out += _history(s)
    findings = _findings(s)
    if findings:
        out += ["", "Findings:", "", *findings]
    return out


def _history(s: WorkloadSection) -> list[str]:
    names = s.candidates
    rows = []
    for run, results in s.history:
        for r in results:
            if r.comparison is None:
                continue
            label = [md(s.point_label(r))] if s.is_sweep else []
            rows.append([run.id, *label, *(fmt_time(r.comparison.measurements[n].median)
                                           if n in r.comparison.measurements else "-" for n in names)])
    return _table(["run", *(["point"] if s.is_sweep else []), *(md(n) for n in names)], rows)


def _findings(s: WorkloadSection) -> list[str]:
    out = []
    for p in s.ok_points:
        c = p.comparison
        assert c is not None
        where = f"{md(s.point_label(p))}: " if s.is_sweep else ""
        for n in c.measurements:
            for f in c.findings_for(n):
                if f.severity >= Severity.WARNING:
                    fix = f" Fix: {md(f.fix)}" if f.fix else ""
                    out.append(f"- **{md(f.code)}** {where}{md(n)}: {md(f.title)}.{fix}")
    return out
