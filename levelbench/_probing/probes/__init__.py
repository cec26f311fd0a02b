"""The probes `explain` runs, in order. Each is a small unit: it looks at a `Subject` and returns `Finding`s.

A probe reads facts from the subject (trace, compiled program, timings), which computes each at
most once, and may record numbers in ``subject.measured``. Order matters twice: ``unrolled`` runs
first because it may shorten the call so that nothing compiles at a ruinous length, and
``compile`` runs before ``retrace`` so the compile split is timed on the first compilation.
An unjitted function's order differs in one place (`in_order`): its dispatches are what every
call of it pays, so the dispatch probe comes right after ``unrolled``.
"""

from __future__ import annotations

from .base import Probe
from . import (compile_share, config, dead, dispatch, donation, kernels, precision, pytorch, retrace, roofline, transfers, unrolled)


def all_probes() -> tuple[Probe, ...]:
    return (
        config.PROBE,
        unrolled.PROBE,
        dead.PROBE,
        precision.PROBE,
        transfers.PROBE,
        donation.PROBE,
        compile_share.PROBE,
        retrace.PROBE,
        dispatch.PROBE,
        roofline.PROBE,
        kernels.PROBE,
        pytorch.PROBE,
    )


def in_order(probes: list[Probe], *, jitted: bool) -> list[Probe]:
    """``probes`` in the order explain runs them on a function that is (or is not) jitted.

    Unjitted, a JAX function pays one dispatch per primitive on every call (LB240): that is its first
    cost, so the dispatch probe runs right after ``unrolled`` (whose cut of a long loop it runs on),
    before the probes of other costs (an x64 copy, transfers, compile split) spend the budget it
    needs. Jitted, the dispatch probe has nothing to do and the fixed order stands.
    """
    names = [p.name for p in probes]
    if jitted or "dispatch" not in names:
        return list(probes)
    dispatch_probe = probes[names.index("dispatch")]
    rest = [p for p in probes if p is not dispatch_probe]
    at = next((i + 1 for i, p in enumerate(rest) if p.name == "unrolled"), 0)
    return rest[:at] + [dispatch_probe] + rest[at:]


def probe_names() -> tuple[str, ...]:
    return tuple(p.name for p in all_probes())
