"""``%lbtime``: one cold call, waited for, with the compilations JAX did during it.

This is what ``%time`` shows, made honest: the result is waited for (JAX and CUDA return before
computing), the share of the time spent tracing and compiling is named, and the same self-checks
as `measure` run on the result (a returned function, a jitted function returning nothing, autograd
left on).
"""

from __future__ import annotations

import dataclasses
import time
from typing import Any

from .._values.findings import Finding
from ._statement import Call


@dataclasses.dataclass(frozen=True)
class ColdCall:
    """One call timed on its own.

    Attributes:
        label: the statement.
        framework: ``"jax"``, ``"torch"``, ``"numpy"`` or ``"python"``.
        wall: seconds from the call to its result being ready.
        cpu: CPU seconds of this process over the same span (all threads).
        traces / compilations: how many programs JAX traced and compiled during the call.
        trace_time / lower_time / compile_time: seconds JAX reported for each stage.
        findings: self-checks on the result.
    """

    label: str
    framework: str
    wall: float
    cpu: float
    traces: int = 0
    compilations: int = 0
    trace_time: float = 0.0
    lower_time: float = 0.0
    compile_time: float = 0.0
    findings: tuple[Finding, ...] = ()

    @property
    def jax_time(self) -> float:
        return self.trace_time + self.lower_time + self.compile_time

    def __rich__(self) -> Any:
        return render_cold_call(self)


def time_cold_call(call: Call) -> ColdCall:
    from .._measuring.sampler import _result_findings
    from .._frameworks import jax_adapter
    from .._frameworks import adapter_named, framework_of, in_use

    with jax_adapter.watch() as log:
        c0, t0 = time.process_time(), time.perf_counter()
        result = call.fn(*call.args, **call.kwargs)
        for adapter in list(in_use()):
            wait = adapter.blocker(result)
            if wait is not None:
                wait(result)
        wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    framework = framework_of(call.fn, call.args, call.kwargs, result)
    findings = _result_findings(call.fn, result)
    findings += adapter_named(framework).call_findings(call.fn, call.args, call.kwargs, result)
    return ColdCall(
        label=call.label,
        framework=framework,
        wall=wall,
        cpu=cpu,
        traces=log.traces,
        compilations=log.compilations,
        trace_time=log.seconds(jax_adapter.TRACE_EVENT),
        lower_time=log.seconds(jax_adapter.LOWER_EVENT),
        compile_time=log.seconds(jax_adapter.COMPILE_EVENT),
        findings=tuple(findings),
    )


def render_cold_call(c: ColdCall) -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    from .._rendering.terminal import render_findings
    from .._measuring.sampler import fmt_time

    t = Table(title=f"{c.label}  [dim]({c.framework}, one cold call)[/dim]", title_justify="left",
              show_header=False, box=None)
    t.add_column(style="bold")
    t.add_column()
    t.add_row("wall time", f"{fmt_time(c.wall)}  [dim](result waited for; CPU {fmt_time(c.cpu)})[/dim]")
    if c.traces or c.compilations:
        share = min(c.jax_time / c.wall, 1.0) if c.wall else 0.0
        t.add_row(
            "JAX compiled",
            f"{c.compilations} program(s): trace {fmt_time(c.trace_time)} + lower {fmt_time(c.lower_time)} "
            f"+ compile {fmt_time(c.compile_time)} = {fmt_time(c.jax_time)}, {share:.0%} of the wall time",
        )
        t.add_row("", "[dim]the next call reuses the compiled program: "
                      f"%lbtimeit {c.label} times the steady state apart[/dim]")
    parts: list[Any] = [t]
    if c.findings:
        parts.append(Text(""))
        parts.extend(render_findings(c.findings))
    return Group(*parts)
