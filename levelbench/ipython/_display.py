"""Showing results: HTML (with plain text beside it) in Jupyter, coloured text in a terminal IPython.

Only reads results, as every renderer does.
"""

from __future__ import annotations

import io
import sys
from typing import Any

from .._rendering.terminal import console
from .._values import display
from .._results.cold_call import ColdCall
from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .._values.units import fmt_time

_PRE = ("<pre style=\"white-space:pre;overflow-x:auto;line-height:normal;"
        "font-family:Menlo,'DejaVu Sans Mono',consolas,'Courier New',monospace\">{code}</pre>")


class RichDisplay:
    """A rich renderable that IPython displays as HTML in Jupyter and as plain text elsewhere."""

    def __init__(self, renderable: Any, width: int = 110) -> None:
        self.renderable = renderable
        self.width = width

    def _repr_html_(self) -> str:
        out = console(file=io.StringIO(), color=True, record=True, width=self.width, force_jupyter=False,
                      color_system="truecolor")
        out.print(self.renderable)
        return out.export_html(inline_styles=True, code_format=_PRE)

    def _repr_pretty_(self, p: Any, cycle: bool) -> None:
        p.text(str(self))

    def __str__(self) -> str:
        return plain_text(self.renderable, self.width)

    def __repr__(self) -> str:
        return str(self)


def plain_text(renderable: Any, width: int = 110) -> str:
    """Render without colours (in a kernel too: `display.plain` never hands the output to Jupyter)."""
    return display.plain(renderable, width)


def in_terminal(shell: Any) -> bool:
    """True for terminal IPython, which shows only text/plain and can print colours itself."""
    module = sys.modules.get("IPython.terminal.interactiveshell")
    return module is not None and isinstance(shell, module.TerminalInteractiveShell)


def show(shell: Any, renderable: Any, width: int = 110) -> None:
    if in_terminal(shell):
        console().print(renderable)
        return
    from IPython.display import display

    display(RichDisplay(renderable, width))


def register_formatters(shell: Any) -> None:
    """``Out[...]`` of a result returned by ``-o`` is one line, not a dataclass dump."""

    formatter = shell.display_formatter.formatters["text/plain"]
    formatter.for_type(Measurement, lambda m, p, cycle: p.text(measurement_summary(m)))
    formatter.for_type(Comparison, lambda c, p, cycle: p.text(comparison_summary(c)))
    formatter.for_type(ColdCall, lambda c, p, cycle: p.text(cold_call_summary(c)))


def timeit_line(m: Any) -> str:
    """The %timeit-style line: median +- CI half-width, how many samples of how many loops, the compile.

    Each warning follows on a line of its own (code and title); ``-v`` shows the full report.
    """

    ci = m.ci
    compiled = f"; compile {fmt_time(m.compile_time)}" if m.compile_time else ""
    loops = f"{m.loops:,} loop{'' if m.loops == 1 else 's'}"
    head = (f"{fmt_time(m.median)} \u00b1 {fmt_time(ci.half_width)} per loop (median \u00b1 "
            f"{ci.confidence:.0%} CI half-width of {m.repeat} sample{'' if m.repeat == 1 else 's'} of {loops}"
            f"{compiled})")
    notes = [f"  {f.severity.name.lower()} {f.code} {f.title}" for f in m.warnings]
    if notes:
        notes.append("  (-v for the evidence and the fixes)")
    return "\n".join([head, *notes])


def measurement_summary(m: Any) -> str:
    ci = m.ci
    flagged = f", findings {' '.join(sorted({f.code for f in m.findings}))}" if m.findings else ""
    return (f"<Measurement {m.label!r} ({m.framework}): median {fmt_time(m.median)} "
            f"[95% CI {fmt_time(ci.lower)} .. {fmt_time(ci.upper)}], cold start {fmt_time(m.cold_start)}"
            f"{flagged}; print() it for the full report>")


def comparison_summary(c: Any) -> str:
    parts = []
    for name in c.names:
        if name == c.baseline:
            continue
        r = c.ratio(name)
        parts.append(f"{name}/{c.baseline} {r.estimate:.3g} [{r.lower:.3g} .. {r.upper:.3g}] {c.verdict(name)}")
    return f"<Comparison {', '.join(parts) or c.baseline}; print() it for the full table>"


def cold_call_summary(c: Any) -> str:
    compiled = f", JAX compile {fmt_time(c.jax_time)} ({c.compilations} program(s))" if c.traces or c.compilations else ""
    flagged = f", findings {' '.join(sorted({f.code for f in c.findings}))}" if c.findings else ""
    return f"<ColdCall {c.label!r} ({c.framework}): wall {fmt_time(c.wall)}{compiled}{flagged}>"
