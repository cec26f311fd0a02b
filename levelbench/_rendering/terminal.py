"""Terminal rendering of measurements and findings. Renderers only read results."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TextIO

from .._values import display
from .._values.findings import Finding, Severity
from .._results.measurement import Measurement
from .._values.units import fmt_time
from .._values.units import compile_split

SEVERITY_STYLE = {Severity.ERROR: "bold red", Severity.WARNING: "bold yellow", Severity.INFO: "bold cyan"}
"""The one colour scheme for severities, in every renderer."""


def render_measurement(m: Measurement) -> Any:
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    t = Table(title=f"{escape(m.label)}  [dim]({m.framework})[/dim]", title_justify="left", show_header=False, box=None)
    t.add_column(style="bold")
    t.add_column()
    ci = m.ci
    t.add_row(
        "steady median",
        f"{fmt_time(m.median)}  [dim]95% CI {fmt_time(ci.lower)} .. {fmt_time(ci.upper)} "
        f"(+-{ci.relative_half_width:.1%})[/dim]",
    )
    t.add_row("min / mean / std", f"{fmt_time(m.min)} / {fmt_time(m.mean)} / {fmt_time(m.std)}")
    t.add_row("IQR", f"{fmt_time(m.iqr)} ({m.iqr / m.median:.1%} of median)" if m.median else "-")
    t.add_row("samples", f"{m.n_samples} x {m.calls_per_sample:,} calls, {fmt_time(m.total_time)} in all")
    if m.compile:
        cached = " [dim](already compiled: cache hit)[/dim]" if m.compile.cached else ""
        t.add_row(
            "compile",
            f"{compile_split(m.compile.trace, m.compile.lower, m.compile.compile)}{cached}",
        )
    first = f"{fmt_time(m.first_call)}"
    if m.compile_in_first_call:
        first += f"  [dim](of which {fmt_time(m.compile_in_first_call)} tracing/compiling)[/dim]"
    t.add_row("first call", first)
    if m.unblocked_call is not None:
        t.add_row("unblocked call", f"{fmt_time(m.unblocked_call)}  [dim](what timing without waiting would show)[/dim]")
    if m.block_overhead:
        t.add_row("wait overhead", fmt_time(m.block_overhead))
    if m.dispatch_floor:
        t.add_row("dispatch floor", f"{fmt_time(m.dispatch_floor)}  [dim](an empty {m.framework} call)[/dim]")
    if m.flops:
        t.add_row("work", f"{m.flops / 1e9:,.3g} GFLOP per call, {m.gflops:,.3g} GFLOP/s")
    parts: list[Any] = [t]
    if m.findings:
        parts.append(Text(""))
        parts.extend(render_findings(m.findings))
    return Group(*parts)


def render_findings(findings: Iterable[Finding], show_subject: bool = True) -> list[Any]:
    from rich.text import Text

    out = []
    for f in sorted(findings, key=lambda f: -f.severity):
        head = Text()
        head.append(f"{f.severity.name.lower()} {f.code}", style=SEVERITY_STYLE[f.severity])
        head.append(f" {f.subject}: " if f.subject and show_subject else " ")
        head.append(f.title)
        out.append(head)
        for label, text in (("evidence", f.evidence), ("cost", f.cost), ("fix", f.fix)):
            if text:
                body = text.replace("\n", "\n" + " " * 14)
                out.append(Text(f"    {label + ':':<10}{body}", style="dim" if label != "fix" else "green"))
    return out


def console(stderr: bool = False, *, file: TextIO | None = None, color: bool | None = None, **options: Any) -> Any:
    """The one way levelbench gets a rich Console. When output is not a terminal (a pipe, a CI log)
    tables get 160 columns, not 80. ``color`` forces colours on or off; ``options`` go to rich.
    Emoji codes are off: levelbench writes none, and a user's ``:ok:`` (in a path, a name) is text."""
    import os
    import sys

    from rich.console import Console  # lazy: ~0.07 s, and only needed when something is printed

    stream = file or (sys.stderr if stderr else sys.stdout)
    if "width" not in options and not stream.isatty():
        options["width"] = max(160, int(os.environ.get("COLUMNS", "0") or 0))
    options.setdefault("emoji", False)
    return Console(file=stream, force_terminal=color, no_color=color is False, **options)


plain = display.plain
