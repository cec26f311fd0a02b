"""Terminal table of a `Comparison`: one row per candidate, findings in words below.

Two lengths: in full (``verbose=True``: every finding with its evidence, cost and fix, how the
candidates were kept apart), as ``print(comparison)`` shows it and ``levelbench run -v``; and brief
(``levelbench run``'s default): the table, one line per candidate whose findings change the
conclusion, one line on noise with the machine's load, and one line naming what ``-v`` adds.
"""

from __future__ import annotations

from typing import Any

from .terminal import SEVERITY_STYLE, render_findings
from .._values.catalogue import CATALOGUE
from .._values.catalogue.conclusion import NOISE, changes_conclusion
from .._values.steal import steal_text
from .._values.units import fmt_time

_VERDICT_STYLE = {"faster": "green", "slower": "red", "indistinguishable": "yellow", "baseline": "dim"}


def render_comparison(c: Any, verbose: bool = True) -> Any:
    """The table, then everything found (``verbose``) or the few lines that change the conclusion."""
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
                         ("GFLOP/s", "right"), (getattr(c, "peak_label", "% practical peak"), "right")):
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
            f"{gf:,.1f}" if gf else "-", f"{share:.0%}" if share else _above_physics(c, name),
        )
    parts: list[Any] = [t]
    lane = lane_peak_line(c)
    if lane:
        parts.append(Text(lane, style="dim"))
    if getattr(c, "peak_note", ""):
        parts.append(Text(f"note: {c.peak_note}", style="yellow"))
    if c.partial:
        parts.append(Text(f"partial: {c.partial}", style="bold yellow"))
    if getattr(c, "stopped_early", ""):
        parts.append(Text(f"note: {c.stopped_early}", style="yellow"))
    if not verbose:
        return Group(*parts, *brief_lines(c))
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


def lane_peak_line(c: Any) -> str:
    """What "% peak (this run)" is a share of: the GEMM lane's rate in the same rounds, with its CI."""
    lanes = getattr(c, "lane_peaks", {})
    if not lanes or not any(c.gflops(n) for n in c.measurements):
        return ""
    rates = "; ".join(f"{p.dtype} {p.rate.estimate / 1e9:,.1f} GFLOP/s (95% CI {p.rate.lower / 1e9:,.1f}-"
                      f"{p.rate.upper / 1e9:,.1f}, n={p.n})" for p in lanes.values())
    return f"% peak (this run): of a NumPy GEMM timed in the same rounds, in a worker of its own: {rates}"


def _above_physics(c: Any, name: str) -> str:
    """The cell for a candidate with no share: LB303 where its rate is above the theoretical peak."""
    m = c.measurements[name]
    bound = getattr(c, "theoretical_flops", {}).get(m.precision)
    if bound and m.flops and m.median and m.flops / m.median > bound:
        return "[red]> theoretical (LB303)[/red]"
    return "-"


def isolation_line(c: Any, detail: bool = True) -> str:
    """One line saying how the candidates were kept apart: where they ran, what was waited for
    (without ``detail``: only where they ran and in how many rounds)."""
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
    if not detail:
        return text
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


def brief_lines(c: Any) -> list[Any]:
    """What goes under the table by default: where the candidates ran, failures, one line per candidate
    with findings that change the conclusion, one line on noise (with the load average), one line on
    what ``-v`` adds."""
    from rich.text import Text

    def one_line(text: str, style: str) -> Text:
        return Text(text, style=style, no_wrap=True, overflow="ellipsis")

    how = isolation_line(c, detail=False)
    lines: list[Any] = [one_line(how + " (-v: what was waited for)", "dim")] if how else []
    lines += [one_line(f"failed {name}: {reason}", "red") for name, reason in c.failed.items()]
    lines += [one_line(f"skipped {name}: {reason}", "dim") for name, reason in c.skipped.items()]
    owned = {name: c.findings_for(name) for name in c.measurements}
    owned[""] = [f for f in c.findings if f.subject not in c.measurements]
    held_back: list[Any] = []
    for name, found in owned.items():
        key = [f for f in found if changes_conclusion(f)]
        held_back += [f for f in found if not changes_conclusion(f) and f.code not in (NOISE, "LB008")]
        if key:
            worst = max(f.severity for f in key)
            said = "; ".join(f"{f.code} {f.subject + ': ' if not name and f.subject else ''}{f.title}" for f in key)
            lines.append(one_line(f"{name + ': ' if name else ''}{said}", SEVERITY_STYLE[worst].replace("bold ", "")))
    noise = noise_line(c)
    if noise:
        lines.append(one_line(noise, "yellow"))
    elif not c.target_reached:
        lines.append(one_line(f"note: not every ratio's CI reached +-{c.rel_ci_target:.0%} within the budget; "
                              "raise --budget for tighter intervals", "dim"))
    if held_back:
        counts: dict[str, int] = {}
        for f in sorted(held_back, key=lambda f: (-f.severity, f.code)):
            counts[f.code] = counts.get(f.code, 0) + 1
        named = ", ".join(f"{code} {_rule_name(code)}" + (f" x{n}" if n > 1 else "") for code, n in counts.items())
        lines.append(one_line(f"also found: {named}; -v shows each with its evidence and fix", "dim"))
    return [Text(""), *lines] if lines else []


def noise_line(c: Any) -> str:
    """One line when candidates' samples are noisy: how many, how much, and the machine's load then."""
    noisy = {n: m for n, m in c.measurements.items() if any(f.code == NOISE for f in m.findings)}
    if not noisy:
        return ""
    spreads = sorted(round(100 * m.iqr / m.median) for m in noisy.values() if m.median)
    spread = (f" (IQR {spreads[0]}" + (f"-{spreads[-1]}" if spreads[-1] != spreads[0] else "") + "% of the median)"
              if spreads else "")
    ci = "" if c.target_reached else f"; CIs wider than +-{c.rel_ci_target:.0%}"
    return (f"noisy: {len(noisy)} of {len(c.measurements)} candidates{spread}{load_text(c.environment)}"
            f"{steal_text(c.environment)}{ci}: close other programs or raise --budget")


def load_text(environment: dict[str, Any]) -> str:
    """``, load average 3.9 -> 4.2 on 2 cores`` (at start -> at end) from a recorded environment, or ``""``."""
    load = environment.get("load_average") or {}
    cores = len(environment.get("affinity") or ()) or environment.get("cpu_count")
    at = [f"{load[k][0]:.1f}" for k in ("start", "end") if load.get(k)]
    if not at:
        return ""
    return f", load average {' -> '.join(at)}" + (f" on {cores} core{'s' if cores != 1 else ''}" if cores else "")


def _rule_name(code: str) -> str:
    rule = CATALOGUE.get(code)
    return rule.name.replace("-", " ") if rule else ""
