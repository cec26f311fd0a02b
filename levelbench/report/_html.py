"""One self-contained HTML file: tables and inline SVG plots, no script, nothing fetched.

Every piece of user data (workload and candidate names, parameters, errors, findings, argv) is
escaped; figures are SVG drawn with text as paths (the ``doctor --run`` timelines: escaped text); a Content-Security-Policy forbids scripts
and network access, so even a crafted name cannot run or load anything when the file is opened.
"""

from __future__ import annotations

import datetime
import html
import re
from collections.abc import Sequence
from typing import Any

from .._measuring.environment import differences
from .._rendering.comparison import isolation_line
from .._values.units import fmt_time
from ..store import Run, StoredResult
from ._findings import finding_item
from ._model import WorkloadSection, sections
from ._plots import Plot, plots
from ._timeline import audit_section, is_audit_run
from .._values.version import VERSION

_CSP = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
_CSS = """
body { font: 14px/1.45 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1d1d1f; margin: 0 auto;
       max-width: 1200px; padding: 1.5rem; }
h1 { font-size: 1.6rem; margin-bottom: .2rem; } h2 { margin-top: 2.5rem; border-bottom: 1px solid #ddd; }
.meta, figcaption, .note { color: #555; font-size: .9em; }
table { border-collapse: collapse; margin: .8rem 0; font-variant-numeric: tabular-nums; }
th, td { border-bottom: 1px solid #e5e5e5; padding: .25rem .6rem; text-align: left; vertical-align: top; }
th { background: #f6f6f6; } td.num { text-align: right; white-space: nowrap; }
.faster { color: #1a7f37; } .slower { color: #b42318; } .failed, .error { color: #b42318; font-weight: 600; } td.failed { white-space: pre-wrap; }
.warning { color: #9a6700; } .baseline, .info { color: #555; }
figure { margin: 1rem 0; padding: .6rem; border: 1px solid #e5e5e5; border-radius: 6px; display: block; }
figure svg { display: block; max-width: 100%; height: auto; }
code, pre { font: 12px/1.4 ui-monospace, SFMono-Regular, Menlo, monospace; background: #f6f6f6; }
pre { padding: .5rem; white-space: pre-wrap; } nav li { margin: .1rem 0; }
ul.findings li { margin-bottom: .4rem; }
"""


def e(value: Any) -> str:
    """Escape user data for HTML text and attributes."""
    return html.escape(str(value), quote=True)


def html_report(runs: Run | Sequence[Run], title: str = "levelbench report") -> str:
    """The report of one or more recorded runs (from `Store.run`) as one HTML document.

    Example:
        >>> from levelbench.store import open_store
        >>> from levelbench.report import html_report
        >>> store = open_store()                                              # doctest: +SKIP
        >>> html = html_report([store.run("latest~1"), store.run("latest")])   # doctest: +SKIP
    """
    runs = [runs] if isinstance(runs, Run) else sorted(runs, key=lambda r: r.id)
    if not runs:
        raise ValueError("html_report needs at least one run, got none")
    # A doctor --run run's results are timed intervals of a script: drawn as timelines, not as workloads.
    audited = [r for r in runs if is_audit_run(r)]
    groups = sections([r for r in runs if r not in audited])
    body = [f"<header><h1>{e(title)}</h1>",
            f'<p class="meta">{len(runs)} run(s), {len(groups)} workload(s)'
            f"{f', {len(audited)} doctor --run audit(s)' if audited else ''}; generated "
            f"{e(datetime.datetime.now().strftime('%Y-%m-%d %H:%M'))} by levelbench {e(VERSION)}</p></header>",
            _runs_table(runs), _environment_notes(runs)]
    if len(groups) > 1:
        body.append("<nav><h2>Workloads</h2><ul>" + "".join(
            f'<li><a href="#{s.anchor}">{e(s.name)}</a></li>' for s in groups) + "</ul></nav>")
    figure_count = 0
    for s in groups:
        section_html, n = _section(s, figure_count)
        figure_count += n
        body.append(section_html)
    body.extend(audit_section(r, i + 1) for i, r in enumerate(audited))
    return (
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n"
        f'<meta http-equiv="Content-Security-Policy" content="{_CSP}">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n"
        + "\n".join(body)
        + "\n</body>\n</html>\n"
    )


def _runs_table(runs: Sequence[Run]) -> str:
    rows = []
    for r in runs:
        v = r.versions
        rows.append(
            f"<tr><td class=\"num\">{r.id}</td><td>{e(r.started_text)}</td><td>{e(r.kind)}</td>"
            f"<td class=\"{e(r.status)}\">{e(r.status)}</td><td><code>{e(r.git_commit or '-')}</code></td>"
            f"<td>{e(r.label)}</td><td><code>{e(' '.join(r.argv))}</code></td>"
            f"<td>{e(v.get('levelbench', '-'))}</td><td>{e(v.get('jax', '-'))}</td><td>{e(v.get('torch', '-'))}</td>"
            f"<td>{e(r.environment.get('cpu', '-'))} ({e(r.environment.get('cpu_count', '?'))} cores)</td></tr>"
        )
    head = "".join(f"<th>{h}</th>" for h in ("run", "started", "kind", "status", "git", "label", "arguments",
                                               "levelbench", "jax", "torch", "CPU"))
    return f"<section><h2>Runs</h2><table><thead><tr>{head}</tr></thead><tbody>{''.join(rows)}</tbody></table></section>"


def _environment_notes(runs: Sequence[Run]) -> str:
    notes = []
    for a, b in zip(runs, runs[1:]):
        diffs = differences(a.environment, b.environment)
        if diffs:
            items = "".join(f"<li><code>{e(d)}</code></li>" for d in diffs)
            notes.append(f"<p class=\"warning\">The environment changed between run {a.id} and run {b.id}; "
                         f"part of any change may come from it:</p><ul>{items}</ul>")
    return "\n".join(notes)


def _section(s: WorkloadSection, figures_before: int) -> tuple[str, int]:
    sweep = f"; swept: {', '.join(e(k) for k in s.varying)}" if s.is_sweep else ""
    parts = [f'<section class="workload" id="{s.anchor}"><h2>{e(s.name)}</h2>',
             f'<p class="meta">run {s.run.id}, {len(s.points)} point(s){sweep}; '
             f"parameters: {e(_params(s.points[0]) if not s.is_sweep else _fixed_params(s))}</p>",
             _results_table(s)]
    figs = plots(s)
    for i, plot in enumerate(figs):
        parts.append(_figure(plot, f"fig{figures_before + i + 1}"))
    parts.append(_findings(s))
    parts.append("</section>")
    return "\n".join(p for p in parts if p), len(figs)


def _params(r: StoredResult) -> str:
    return ", ".join(f"{k}={v}" for k, v in r.params.items()) or "none"


def _fixed_params(s: WorkloadSection) -> str:
    first = s.points[0].params
    return ", ".join(f"{k}={v}" for k, v in first.items() if k not in s.varying) or "none"


def _results_table(s: WorkloadSection) -> str:
    head = (["point"] if s.is_sweep else []) + ["candidate", "framework", "median", "95% CI", "vs baseline",
                                                 "verdict", "compile", "first call", "samples"]
    rows = []
    for p in s.points:
        point = [f"<td>{e(s.point_label(p))}</td>"] if s.is_sweep else []
        if p.comparison is None:
            reason = f"{p.status}: {p.error}" if p.error else p.status
            rows.append(f"<tr>{''.join(point)}<td colspan=\"9\" class=\"failed\">{e(reason)}</td></tr>")
            continue
        c = p.comparison
        for n in [n for n in s.candidates if n in c.measurements]:
            m = c.measurements[n]
            ratio = c.ratios[n]
            verdict = c.verdict(n)
            compile_time = m.compile.total if m.compile else m.compile_in_first_call
            cells = [
                f"<td>{e(n)}{' <span class=note>(' + e(c.notes[n]) + ')</span>' if c.notes.get(n) else ''}</td>",
                f"<td>{e(m.framework)}</td>",
                f'<td class="num">{e(fmt_time(m.median))}</td>',
                f'<td class="num">{e(fmt_time(m.ci.lower))} .. {e(fmt_time(m.ci.upper))}</td>',
                f'<td class="num">{ratio.estimate:.3g}x [{ratio.lower:.3g}, {ratio.upper:.3g}]</td>',
                f'<td class="{e(verdict)}">{e(verdict)}</td>',
                f'<td class="num">{e(fmt_time(compile_time)) if compile_time else "-"}</td>',
                f'<td class="num">{e(fmt_time(m.first_call))}</td>',
                f'<td class="num">{m.n_samples} x {m.calls_per_sample}</td>',
            ]
            rows.append(f"<tr>{''.join(point)}{''.join(cells)}</tr>")
        for n, why in c.skipped.items():
            rows.append(f"<tr>{''.join(point)}<td>{e(n)}</td><td colspan=\"8\" class=\"note\">skipped: {e(why)}</td></tr>")
    heads = "".join(f"<th>{h}</th>" for h in head)
    table = f"<table><thead><tr>{heads}</tr></thead><tbody>{''.join(rows)}</tbody></table>"
    return table + _how_timed(s)


def _how_timed(s: WorkloadSection) -> str:
    """How each point's candidates were kept apart, and whether the CIs reached their target (what
    `levelbench run` shows only with -v)."""
    lines = []
    for p in s.ok_points:
        c = p.comparison
        assert c is not None
        where = f"{s.point_label(p)}: " if s.is_sweep else ""
        how = isolation_line(c)
        if not c.target_reached:
            how += ("; " if how else "") + f"not every ratio's CI reached +-{c.rel_ci_target:.0%} within the budget"
        if how:
            lines.append(f'<p class="note how-timed">{e(where + how)}</p>')
    return "".join(lines)


def _findings(s: WorkloadSection) -> str:
    items = []
    for p in s.ok_points:
        c = p.comparison
        assert c is not None
        where = f"{s.point_label(p)}: " if s.is_sweep else ""
        pairs = [(n, f) for n in c.measurements for f in c.findings_for(n)]
        pairs += [(f.subject, f) for f in c.findings if f.subject not in c.measurements]
        for subject, f in pairs:  # every finding, notes (info) too: the terminal shows them only with -v
            items.append(finding_item(f, where + (subject + ": " if subject else "")))
    if not items:
        return ""
    return f'<h3>Findings</h3><ul class="findings">{"".join(items)}</ul>'


_SVG_PROLOGUE = re.compile(r"<\?xml.*?\?>|<!DOCTYPE.*?>|<!--.*?-->|<metadata>.*?</metadata>", re.S)


def inline_svg(svg: str, prefix: str) -> str:
    """A standalone SVG document made fit to inline: no prologue or comments, ids made unique."""
    body = _SVG_PROLOGUE.sub("", svg).strip()
    body = re.sub(r'\bid="([^"]+)"', rf'id="{prefix}-\1"', body)
    body = re.sub(r"url\(#([^)]+)\)", rf"url(#{prefix}-\1)", body)
    return re.sub(r'((?:xlink:)?href)="#([^"]+)"', rf'\1="#{prefix}-\2"', body)


def _figure(plot: Plot, prefix: str) -> str:
    svg = inline_svg(plot.svg, prefix).replace("<svg ", f'<svg role="img" aria-label="{e(plot.caption)}" ', 1)
    return f'<figure class="plot plot-{e(plot.kind)}" id="{prefix}">{svg}<figcaption>{e(plot.caption)}</figcaption></figure>'
