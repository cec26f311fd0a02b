"""The probes `explain` runs, in order. Each is a small unit: it looks at a `Subject` and returns `Finding`s.

A probe reads facts from the subject (trace, compiled program, timings), which computes each at
most once, and may record numbers in ``subject.measured``. Order matters twice: ``unrolled`` runs
first because it may shorten the call so that nothing compiles at a ruinous length, and
``compile`` runs before ``retrace`` so the compile split is timed on the first compilation.
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


def probe_names() -> tuple[str, ...]:
    return tuple(p.name for p in all_probes())
