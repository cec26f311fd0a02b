"""How the recurrence runs for a given shape: a static choice, made at trace time.

The numbers behind each choice are in docs/gru.md (2-core AMD EPYC, XLA:CPU, jaxlib 0.10.2);
``python benchmarks/gru.py --kernels`` re-measures them on the machine at hand.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Kernel:
    """How one layer-direction's recurrence runs (see `._gru_layer`); never what it computes.

    Attributes:
        gemms: recurrent GEMMs per step: 1 (the three gates fused, ``(B, H) x (H, 3H)``) or 3
            (one ``(B, H) x (H, H)`` per gate).
        unroll: steps per iteration of the forward (inference) loop. The loops that run under
            differentiation always take one step per iteration: unrolled, XLA no longer
            updated their buffers in place.
        custom_vjp: differentiate with the hand-written backward pass; ``False`` lets JAX
            differentiate the loop itself (kept to measure the difference).
    """

    gemms: int = 1
    unroll: int = 1
    custom_vjp: bool = True

    def __post_init__(self) -> None:
        if self.gemms not in (1, 3):
            raise ValueError(f"Kernel gemms must be 1 or 3, got {self.gemms!r}")
        if not isinstance(self.unroll, int) or self.unroll < 1:
            raise ValueError(f"Kernel unroll must be a positive int, got {self.unroll!r}")


def choose(batch: int, hidden: int) -> Kernel:
    """The fastest kernel measured for this batch and hidden size."""
    del batch, hidden  # every variant measured within noise of the default: see docs/gru.md
    return Kernel()
