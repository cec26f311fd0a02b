"""``levelbench env`` as a table: the machine, both peaks, packages, BLAS, settings (reads, never measures)."""

from __future__ import annotations

import time
from typing import Any


def _gflops(value: float | None) -> str:
    return f"{value / 1e9:,.1f} GFLOP/s" if value else "-"


def peak_lines(theoretical: dict[str, Any] | None, practical: dict[str, Any] | None) -> list[tuple[str, str]]:
    """(label, value) rows for both peaks: how the theoretical one was worked out and what was unknown,
    when the practical one was measured (or that it was not yet)."""
    rows: list[tuple[str, str]] = []
    if theoretical:
        t = theoretical
        clock = f"{t['clock_mhz']:,.0f} MHz" if t.get("clock_mhz") else "unknown clock"
        rows.append(("theoretical peak", f"float32 {_gflops(t['flops']['float32'])}, float64 "
                     f"{_gflops(t['flops']['float64'])}" + (" (approximate)" if t.get("approximate") else "")))
        rows.append(("  worked out as", f"{t['cores']} core(s) x {t['vector_bits']}-bit SIMD x {t['fma_units']} FMA "
                     f"unit(s) x 2 x {clock} ({t['isa']}; clock: {t['clock_source']})"))
        rows.append(("  bound (LB303)", f"float32 {_gflops(t['bound_flops']['float32'])}, float64 "
                     f"{_gflops(t['bound_flops']['float64'])} at {t['bound_clock_mhz']:,.0f} MHz: no correct "
                     "program is faster"))
        for item in t.get("unknown", ()):
            rows.append(("  not known", item))
    if practical:
        p = practical
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(p["measured_at"]))
        rows.append(("practical peak", f"float32 {_gflops(p['float32_flops'])}, float64 {_gflops(p['float64_flops'])} "
                     "(NumPy GEMMs: what the BLAS reaches; what '% practical peak' is a share of)"))
        attempts = p.get("attempts") or []
        how = (f"{len(attempts)} attempt(s) in a process of its own"
               + ("" if p.get("agreed", True) else ", the best two never agreed: not cached") if attempts else "")
        rows.append(("  measured", when + (f", {how}" if how else "")))
        if p.get("raised_by"):
            rows.append(("  raised by", p["raised_by"]))
    else:
        rows.append(("practical peak", "not measured yet: `levelbench env --peak` measures it (so does the "
                     "first comparison)"))
    return rows


def render_environment(env: dict[str, Any]) -> Any:
    """The environment as a two-column table, in sections."""
    from rich.markup import escape
    from rich.table import Table

    t = Table(show_header=False, box=None, pad_edge=False)
    t.add_column(style="bold", no_wrap=True)
    t.add_column()

    def section(title: str) -> None:
        t.add_row(f"[underline]{title}[/underline]", "")

    def row(label: str, value: Any) -> None:
        t.add_row(escape(label), escape(value if isinstance(value, str) else str(value)))

    section("machine")
    for key in ("cpu", "machine", "cpu_count", "affinity", "platform", "python", "implementation", "hostname"):
        if env.get(key) is not None:
            row(key.replace("_", " "), env[key] if key != "affinity" else ",".join(map(str, env[key])))
    freq = env.get("cpu_frequency") or {}
    row("cpu frequency", ", ".join(f"{k} {v}" for k, v in freq.items()) if freq else "not shown by the OS")
    load = env.get("load_average") or {}
    if load:
        row("load average", "; ".join(f"{k} {' '.join(map(str, v))}" for k, v in load.items()))
    section("peak FLOP/s")
    for label, value in peak_lines(env.get("theoretical_peak"), env.get("practical_peak")):
        row(label, value)
    section("packages")
    for name, version in (env.get("packages") or {}).items():
        row(name, version)
    if env.get("blas"):
        section("BLAS")
        for b in env["blas"]:
            row(str(b.get("internal_api") or b.get("user_api")),
                ", ".join(f"{k} {v}" for k, v in b.items() if k not in ("internal_api", "user_api") and v is not None))
    if env.get("env_vars"):
        section("environment variables")
        for name, value in env["env_vars"].items():
            row(name, value)
    for framework in ("jax", "torch"):
        if env.get(framework):
            section(framework)
            for k, v in env[framework].items():
                row(k.replace("_", " "), v)
    return t
