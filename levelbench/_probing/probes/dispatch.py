"""LB240: a JAX function run op by op, paying dispatch for every primitive.

Without ``jax.jit`` each primitive is dispatched on its own (tens of microseconds each). The
number of dispatches per call is the number of top-level equations of the traced program (a
jitted helper inside counts once); the function is timed as given and jitted, side by side.
"""

from __future__ import annotations

import types

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_time
from ..jaxpr import open_jaxpr
from ..subject import Subject
from .base import Probe

MIN_RATIO = 2.0
MIN_SAVING = 20e-6


def run(subject: Subject) -> list[Finding]:
    if subject.is_jitted:
        return []
    trace = subject.traced()
    if not trace.ok:
        return []
    dispatches = len(open_jaxpr(trace.jaxpr).eqns)
    eager, jitted, compiled = subject.timing(), subject.jitted_timing(), subject.compiled()
    if eager is None or jitted is None or dispatches == 0:
        return []
    per_dispatch = eager.median / dispatches
    ratio = eager.median / jitted.median if jitted.median > 0 else float("inf")
    compile_total = compiled.split.total if compiled else None
    subject.measured.update(dispatches=dispatches, eager=eager.median, steady_jitted=jitted.median,
                            seconds_per_dispatch=per_dispatch, jit_speedup=ratio)
    return dispatch_finding(subject.label, dispatches, eager.median, jitted.median, compile_total,
                            unrolled=bool(subject.measured.get("scale", {}).get("linear")),
                            expression=callable_expression(subject.fn))


def callable_expression(fn: object) -> str | None:
    """How the user's code names ``fn``: ``forward``, or ``mlp.apply`` for a bound method."""
    name = getattr(fn, "__name__", None)
    if not isinstance(name, str) or not name.isidentifier():
        return None
    owner = getattr(fn, "__self__", None)
    if owner is not None and not isinstance(owner, types.ModuleType):
        return f"{type(owner).__name__.lower()}.{name}"
    return name


def dispatch_finding(label: str, dispatches: int, eager: float, jitted: float, compile_total: float | None,
                     unrolled: bool = False, expression: str | None = None) -> list[Finding]:
    ratio = eager / jitted if jitted > 0 else float("inf")
    saving = eager - jitted
    if ratio < MIN_RATIO or saving < MIN_SAVING:
        return []
    per_dispatch = eager / dispatches
    compiled = f" after {fmt_time(compile_total)} of compilation" if compile_total else ""
    expression = expression or (label if label.isidentifier() else "f")
    name = expression.rsplit(".", 1)[-1]
    fix = f"{name} = jax.jit({expression})   # jit the outermost function, once"
    if unrolled:
        fix += "\n# its Python loop unrolls under jit (see LB201): turn it into jax.lax.scan first"
    payback = f"; jit pays for its compilation after {compile_total / saving:,.0f} calls" if compile_total else ""
    return [Finding(
        "LB240",
        f"{label} runs op by op: {dispatches:,} primitive dispatches per call, {ratio:,.1f}x slower than jitted",
        Severity.WARNING,
        evidence=(f"as given: {fmt_time(eager)} per call = {dispatches:,} dispatches x {fmt_time(per_dispatch)}; "
                  f"under jax.jit: {fmt_time(jitted)}{compiled}{payback}"),
        cost=f"{fmt_time(saving)} per call",
        fix=fix,
        subject=label,
        data={"cost_seconds": saving, "dispatches": dispatches, "eager": eager, "jitted": jitted,
              "seconds_per_dispatch": per_dispatch, "ratio": ratio},
    )]


PROBE = Probe("dispatch", ("LB240",), run, expensive=True,
              summary="op-by-op dispatch of an unjitted function, timed against the same function jitted")
