"""LB253: a jitted update copies a large input it overwrites; ``donate_argnums`` lets XLA reuse it.

The pattern is read from the traced program (`levelbench._probing.donation`); the fix, a new
``jax.jit(..., donate_argnums=...)``, is measured beside the function as given by explain's fix
trials (`levelbench._probing.fixes`), each call's output fed to the next as an update is used.
A note, not a warning: whether the copy matters depends on how often the caller updates.
"""

from __future__ import annotations

from ..._values.findings import Finding, Severity
from ..._values.units import fmt_bytes
from ..arguments import jit_fix
from ..donation import argument_of, donates_already, overwritten_inputs
from ..subject import Subject, fresh_jit
from .base import Probe


def run(subject: Subject) -> list[Finding]:
    if not subject.is_jitted:
        return []  # op by op there is no program to alias buffers in: LB240 comes first
    trace = subject.traced()
    if not trace.ok or donates_already(trace.traced):
        return []
    jitted, arrays = fresh_jit(subject.fn, subject.args, subject.kwargs)
    try:  # the program over the call's arrays, in the order the fix trial passes them
        program = jitted.trace(*arrays).jaxpr
    except Exception:  # the fresh copy does not trace as the user's did: say nothing
        return []
    found = overwritten_inputs(program)
    if not found:
        return []
    o = found[0]
    argnum, argname, where = argument_of(subject.args, subject.kwargs, o.index)
    name, _ = jit_fix(subject.fn, subject.label)
    donate = f"donate_argnums=({argnum},)" if argnum is not None else f"donate_argnames=({argname!r},)"
    return [Finding(
        "LB253",
        f"{subject.label} copies its {fmt_bytes(o.nbytes)} input ({where}) to update it on every call: "
        "donate it and XLA can update in place",
        Severity.INFO,
        evidence=(f"{where}, {o.dtype}{list(o.shape)}, feeds {o.primitive} and output {o.output} has its shape and "
                  "dtype, but it is not donated: XLA keeps the caller's buffer and writes a copy"),
        cost=f"a {fmt_bytes(o.nbytes)} copy per call",
        fix=(f"{name} = jax.jit({_base_name(subject)}, {donate})\n"
             f"x = {name}(x, ...)   # the caller must not use the old x after the call"),
        subject=subject.label,
        data={"donation": o.to_dict(), "argnum": argnum, "argname": argname, "donate": donate},
    )]


def _base_name(subject: Subject) -> str:
    base = getattr(subject.fn, "__wrapped__", subject.fn)
    return getattr(base, "__name__", subject.label)


PROBE = Probe("donation", ("LB253",), run,
              summary="a jitted update copies a large input it overwrites: donate_argnums, measured")
