"""How a GRU's or an LSTM's recurrence runs for a given shape: a static choice, made at trace time.

The numbers behind each choice are in docs/design/gru.md (2-core AMD EPYC, XLA:CPU, jaxlib 0.10.2);
``python benchmarks/gru.py --kernels`` re-measures them on the machine at hand.
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Kernel:
    """How one layer-direction's recurrence runs (see `._gru_layer`, `._lstm_layer`); never what it computes.

    Attributes:
        gemms: recurrent GEMMs per step: 1 (the three gates fused, ``(B, H) x (H, 3H)``) or 3
            (one ``(B, H) x (H, H)`` per gate).
        unroll: steps per iteration of the forward (inference) loop. The loops that run under
            differentiation always take one step per iteration: unrolled, XLA no longer
            updated their buffers in place.
        custom_vjp: differentiate with the hand-written backward pass; ``False`` lets JAX
            differentiate the loop itself (kept to measure the difference).
        native: run the forward and backward loops in the compiled CPU kernel
            (`._gru_native`, `._lstm_native`) instead of XLA loops; ``gemms`` and ``unroll`` then do not apply.
        threads: threads of the native kernel (0: `._rnn_native.default_threads`).
    """

    gemms: int = 1
    unroll: int = 1
    custom_vjp: bool = True
    native: bool = False
    threads: int = 0

    def __post_init__(self) -> None:
        if self.gemms not in (1, 3):
            raise ValueError(f"Kernel gemms must be 1 or 3, got {self.gemms!r}")
        if not isinstance(self.unroll, int) or self.unroll < 1:
            raise ValueError(f"Kernel unroll must be a positive int, got {self.unroll!r}")
        if not isinstance(self.threads, int) or self.threads < 0:
            raise ValueError(f"Kernel threads must be an int >= 0 (0: the default), got {self.threads!r}")
        if self.native and not self.custom_vjp:
            raise ValueError("Kernel native=True needs custom_vjp=True: JAX cannot differentiate "
                             "the native loop itself")


def choose(batch: int, hidden: int, dtype) -> Kernel:
    """The fastest kernel measured for this batch, hidden size and dtype.

    The native CPU kernel when it can run (float32, a CPU backend, the kernel built: see
    `._rnn_native.status`); otherwise XLA loops, whose variants all measured within noise of the
    default (docs/design/gru.md).
    """
    del batch, hidden
    # lazy: jax loads here, not when this module is imported
    from . import _rnn_native

    return Kernel(native=_rnn_native.usable(dtype))
