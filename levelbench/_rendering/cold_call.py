"""Terminal rendering of a `ColdCall` (``%lbtime``): the wall time, and what JAX compiled during it."""

from __future__ import annotations

from typing import Any

from .._results.cold_call import ColdCall
from .._values.units import compile_split, fmt_time
from .terminal import render_findings


def render_cold_call(c: ColdCall) -> Any:
    from rich.console import Group
    from rich.markup import escape
    from rich.table import Table
    from rich.text import Text

    t = Table(title=f"{escape(c.label)}  [dim]({c.framework}, one cold call)[/dim]", title_justify="left",
              show_header=False, box=None)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("wall time", f"{fmt_time(c.wall)}  [dim](result waited for; CPU {fmt_time(c.cpu)})[/dim]")
    if c.traces or c.compilations:
        share = min(c.jax_time / c.wall, 1.0) if c.wall else 0.0
        t.add_row(
            "JAX compiled",
            f"{c.compilations} program(s): {compile_split(c.trace_time, c.lower_time, c.compile_time)}, "
            f"{share:.0%} of the wall time",
        )
        t.add_row("", "[dim]the next call reuses the compiled program: "
                      f"%lbtimeit {escape(c.label)} times the steady state apart[/dim]")
    parts: list[Any] = [t]
    if c.findings:
        parts.append(Text(""))
        parts.extend(render_findings(c.findings))
    return Group(*parts)
