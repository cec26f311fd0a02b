"""The GRU recurrence in the native CPU kernel (``_native/gru_cpu.cc``): the calls.

Building, caching, registering and the thread count are `._rnn_native`'s: one library holds the
GRU's and the LSTM's kernels, on the same loops, GEMM tiles, thread team and FFI binding.
"""

from __future__ import annotations

import jax

from ._rnn_native import GRU_TARGETS, call, spec_of


def forward(x: jax.Array, w_ih: jax.Array, b_x: jax.Array, w_hh: jax.Array, b_hn: jax.Array,
            h0: jax.Array, reverse: bool, threads: int) -> jax.Array:
    """Every step's state ``(T, B, H)`` of one layer-direction; the input projection
    ``W_ih x_t + b_x`` (``b_x = [b_ir + b_hr, b_iz + b_hz, b_in]``) is computed inside the loop."""
    spec = jax.ShapeDtypeStruct((*x.shape[:2], w_hh.shape[1]), x.dtype)
    return call(GRU_TARGETS[0], spec, x, w_ih, b_x, w_hh, b_hn, h0, reverse=reverse, threads=threads)


def forward_keeping_gates(x: jax.Array, w_ih: jax.Array, b_x: jax.Array, w_hh: jax.Array,
                          b_hn: jax.Array, h0: jax.Array, reverse: bool, threads: int):
    """`forward`, also returning for the backward each step's gates ``r, z, n`` and ``W_hn h + b_hn``:
    one buffer of shape ``(T, B, 4H)`` for `backward` alone, its floats in the kernel's own order
    (by blocks of 8 units, rnn_kept.h)."""
    t, b, h = *x.shape[:2], w_hh.shape[1]
    hs, kept = call(GRU_TARGETS[1], (jax.ShapeDtypeStruct((t, b, h), x.dtype),
                                     jax.ShapeDtypeStruct((t, b, 4 * h), x.dtype)),
                    x, w_ih, b_x, w_hh, b_hn, h0, reverse=reverse, threads=threads)
    return hs, (kept,)


def backward(d_hs: jax.Array, activations, hs: jax.Array, h0: jax.Array, w_hh: jax.Array, x: jax.Array,
             w_ih: jax.Array, reverse: bool, threads: int):
    """The gradients of one layer-direction's input ``x``, of ``W_ih``, ``W_hh``, of the gate
    pre-activations' biases (``b_ih`` and ``b_hh``'s, as torch lays them out) and of ``h0``. The
    weight gradients are summed inside the loop, a block of steps at a time, so no ``(T, B, 3H)``
    gradient is handed back to XLA."""
    (kept,) = activations
    gates = jax.ShapeDtypeStruct((w_hh.shape[0],), w_hh.dtype)
    # The operands and results every backward takes first, then the GRU's own (rnn_handlers.h).
    d_x, d_w_ih, d_w_hh, dh0, d_b_ih, d_b_hh = call(
        GRU_TARGETS[2], (spec_of(x), spec_of(w_ih), spec_of(w_hh), spec_of(h0), gates, gates),
        d_hs, hs, h0, w_hh, x, w_ih, kept, reverse=reverse, threads=threads)
    return d_x, d_w_ih, d_w_hh, d_b_ih, d_b_hh, dh0
