"""`Probe`: one unit of `explain`'s work, as the probe modules declare it."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from ..._values.findings import Finding
from ..subject import Subject


@dataclasses.dataclass(frozen=True)
class Probe:
    """``name`` (for ``probes=``), the finding ``codes`` it can give, whether it is skipped by
    ``quick=True``, which frameworks it applies to, and the function that runs it."""

    name: str
    codes: tuple[str, ...]
    run: Callable[[Subject], list[Finding]]
    expensive: bool = False
    frameworks: tuple[str, ...] = ("jax",)
    summary: str = ""
