"""Terminal rendering of a `Diagnosis`: the measured numbers, then the findings in rank order."""

from __future__ import annotations

from typing import Any

from .terminal import render_findings
from .._values.units import fmt_time
from .._results.diagnosis import Diagnosis
from .._values.units import compile_split


def render_diagnosis(d: Diagnosis) -> Any:
    from rich.console import Group
    from rich.table import Table
    from rich.text import Text

    errors = sum(1 for f in d.findings if f.severity.name == "ERROR")
    warnings = sum(1 for f in d.findings if f.severity.name == "WARNING")
    verdict = (f"{len(d.findings)} finding(s): {errors} error(s), {warnings} warning(s)" if d.findings
               else "nothing found")
    title = Text.assemble(("explain ", "bold"), (d.label, "bold"),
                          (f"  ({d.framework}, {verdict}, {fmt_time(d.elapsed)})", "dim"))
    t = Table(show_header=False, box=None)
    t.add_column(style="bold")
    t.add_column()
    for name, value in measured_rows(d.measured):
        t.add_row(name, Text(value))
    parts: list[Any] = [title, t]
    if d.findings:
        parts.append(Text(""))
        for i, f in enumerate(d.findings, 1):
            lines = render_findings([f])
            lines[0] = Text.assemble(f"{i}. ", lines[0])
            parts.extend(lines)
    extra = list(d.notes) + [f"probe {name} not run: {why}" for name, why in d.skipped.items()
                             if not why.startswith("not selected")]
    if extra:
        parts.append(Text(""))
        parts.extend(Text(f"note: {line}", style="dim") for line in extra)
    return Group(*parts)


def measured_rows(m: dict[str, Any]) -> list[tuple[str, str]]:
    """The numbers worth a line in the report, in reading order."""
    rows = []
    scale = m.get("scale") or {}
    short = m.get("shortened")
    if short:
        rows.append(("shortened", f"{short['argument']} cut to {short['to']} of {short['length']} along axis "
                                  f"{short['axis']} for the numbers below ({short['reason']})"))
    if "equations" in m:
        rows.append(("equations", f"{m['equations']:,}" + (f" ({m['outputs']} output(s))" if "outputs" in m else "")))
    if scale.get("lengths"):
        growth = "/".join(f"{e:,}" for e in scale["equations"])
        lengths = "/".join(str(n) for n in scale["lengths"])
        tried = scale.get("tried") or []
        # Not "flat": a loop over something else (another axis, a global) may still grow the program.
        per_step = (f"+{scale['equations_per_step']:,.0f} per step" if scale["linear"]
                    else "no growth along it" + (f", nor along {len(tried) - 1} other axis(es) tried"
                                                 if len(tried) > 1 else ""))
        rows.append(("growth", f"{growth} equations at {lengths} steps of {scale['axis']['name']} ({per_step})"))
        if scale["linear"]:
            rows.append(("projected", f"{fmt_time(scale['projected_seconds'])} to trace and compile at "
                                      f"{scale['length']:,} steps"))
    elif scale.get("skipped"):
        rows.append(("growth", f"not measured: {scale['skipped']}"))
    looped = m.get("looped_line")
    if looped:
        rows.append(("loop", f"{looped['line']} ran {looped['runs']:,} times in one trace: "
                             f"{looped['equations']:,} of {looped['total']:,} equations"))
    compiled = m.get("compile")
    if compiled:
        rows.append(("compile", compile_split(compiled["trace"], compiled["lower"], compiled["compile"])))
    for key, name in (("first_call", "first run"), ("steady", "steady"), ("eager", "op by op"),
                      ("steady_jitted", "jitted"), ("inference_mode", "inference_mode")):
        if m.get(key) is not None:
            rows.append((name, fmt_time(m[key])))
    if m.get("dispatches"):
        rows.append(("dispatches", f"{m['dispatches']:,} per call, {fmt_time(m.get('seconds_per_dispatch'))} each"))
    if m.get("flops"):
        rate = f", {m['flops'] / m['steady'] / 1e9:,.3g} GFLOP/s" if m.get("steady") else ""
        rows.append(("work", f"{m['flops'] / 1e9:,.3g} GFLOP per call{rate}"))
    if m.get("torch_threads") is not None:
        rows.append(("threads", f"torch {m['torch_threads']}, cores {m['cores']}"))
    retrace = m.get("retrace")
    if retrace:
        rows.append(("compilations", f"{'/'.join(str(c) for c in retrace['compilations'])} over "
                                     f"{retrace['calls']} calls"))
    return rows
