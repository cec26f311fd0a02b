"""Terminal table of a `Comparison`: one row per candidate, findings in words below."""

from __future__ import annotations

from typing import Any

from .terminal import render_findings
from .._values.units import fmt_time

_VERDICT_STYLE = {"faster": "green", "slower": "red", "indistinguishable": "yellow", "baseline": "dim"}


def render_comparison(c: Any) -> Any:
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    # Names, titles, notes and parameters are the user's text: escaped, never read as markup.
    params = ", ".join(f"{k}={v}" for k, v in c.params.items())
    title = " ".join(x for x in (escape(c.title or ""), f"[dim]({escape(params)})[/dim]" if params else "") if x)
    t = Table(title=title or None, title_justify="left", header_style="bold")
    for col, justify in (("candidate", "left"), ("cold start", "right"), ("steady median", "right"),
                         ("95% CI", "right"), (f"ratio to {escape(c.baseline)}", "right"), ("verdict", "left"),
                         ("GFLOP/s", "right"), ("% peak", "right")):
        t.add_column(col, justify=justify, no_wrap=col != "candidate")
    for name, m in c.measurements.items():
        cold = fmt_time(m.cold_start)
        if m.compile and not m.compile.cached:
            cold += f"\n[dim]compile {fmt_time(m.compile.total)}[/dim]"
        elif m.compile_in_first_call > 1e-3:
            cold += f"\n[dim]compile {fmt_time(m.compile_in_first_call)}[/dim]"
        r = c.ratios[name]
        verdict = c.verdict(name)
        ratio = "1" if name == c.baseline else f"{r.estimate:.3g} [dim]({r.lower:.3g}-{r.upper:.3g})[/dim]"
        gf = c.gflops(name)
        share = c.peak_share(name)
        label = (f"{escape(name)}\n[dim]{escape(m.framework)}" + (f"; {escape(c.notes[name])}" if name in c.notes else "")
                 + "[/dim]")
        t.add_row(
            label, cold, fmt_time(m.median), f"{fmt_time(m.ci.lower)}-{fmt_time(m.ci.upper)}", ratio,
            f"[{_VERDICT_STYLE[verdict]}]{verdict}[/]",
            f"{gf:,.1f}" if gf else "-", f"{share:.0%}" if share else "-",
        )
    parts: list[Any] = [t]
    if c.partial:
        parts.append(Text(f"partial: {c.partial}", style="bold yellow"))
    how = isolation_line(c)
    if how:
        parts.append(Text(how, style="dim"))
    for name, reason in c.failed.items():
        parts.append(Text(f"failed {name}: {reason}", style="red"))
    for name, reason in c.skipped.items():
        parts.append(Text(f"skipped {name}: {reason}", style="dim"))
    if not c.target_reached and not c.partial:
        parts.append(Text(f"note: not every ratio's CI reached +-{c.rel_ci_target:.0%} within the budget; "
                          "raise the budget (budget=... / --budget) for tighter intervals", style="dim"))
    for name in c.measurements:
        found = [f for f in c.findings_for(name) if f.code not in ("LB008",)]
        if found:
            parts.append(Text(f"\n{name}:", style="bold"))
            parts.extend(render_findings(found, show_subject=False))
    unowned = [f for f in c.findings if f.subject not in c.measurements]
    if unowned:
        parts.append(Text(""))
        parts.extend(render_findings(unowned))
    return Group(*parts)


def isolation_line(c: Any) -> str:
    """One line saying how the candidates were kept apart: where they ran, what was waited for."""
    iso = c.isolation
    if iso is None or len(c.measurements) < 2:
        return ""
    rounds = len(next(iter(c.rounds.values()), ()))
    if iso.mode == "workers":
        per = {"framework": "one per framework", "candidate": "one per candidate"}.get(iso.grouping, "")
        where = f"timed in {iso.n_workers} worker process{'es' if iso.n_workers != 1 else ''}" + (f" ({per})" if per else "")
    else:
        where = "timed in this process"
    text = f"{where}, interleaved in {rounds} rounds"
    if not iso.measured:
        return text + "; between blocks a fixed pause (thread states cannot be read here)"
    spinning = {n: s for n, s in iso.spin.items() if s > 0.002}
    if spinning:
        name = max(spinning, key=spinning.__getitem__)
        text += (f"; before each block, waited for helper threads to stop (longest after {name}: "
                 f"{fmt_time(spinning[name])})")
    if iso.wake_up:
        name = max(iso.wake_up, key=iso.wake_up.__getitem__)
        slower = iso.wake_up[name]
        text += "; each block's first samples discarded" + (
            f" (they ran up to {slower:.0%} slower than the block's median: {name})" if slower >= 0.005 else
            " (as warm-up; here they ran no slower than the rest)")
    if iso.not_quiet:
        text += f"; threads that never stopped: {', '.join(iso.not_quiet[:3])}"
    return text
