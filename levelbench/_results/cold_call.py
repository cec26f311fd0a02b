"""`ColdCall`: one call timed on its own, as ``%time`` would, but waited for and with its compile share.

What ``%lbtime`` shows: the result is waited for (JAX and CUDA return before computing), the share
of the time spent tracing and compiling is named, and the self-checks of `measure` run on the
result (a returned function, a jitted function returning nothing, autograd left on).
"""

from __future__ import annotations

import dataclasses
from typing import Any

from .._values import display
from .._values.findings import Finding


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
        return display.renderable(self)

    def __str__(self) -> str:
        return display.text(self)
