"""The LSTM recurrence in the native CPU kernel (``_native/lstm_cpu.cc``): the calls.

Building, caching, registering and the thread count are `._rnn_native`'s: one library holds the
GRU's and the LSTM's kernels, on the same loops, GEMM tiles, thread team and FFI binding.
"""

from __future__ import annotations

import jax

from ._rnn_native import LSTM_TARGETS, call, spec_of


def forward(x: jax.Array, w_ih: jax.Array, b: jax.Array, w_hh: jax.Array, h0: jax.Array, c0: jax.Array,
            reverse: bool, threads: int) -> tuple[jax.Array, jax.Array]:
    """Every step's ``h`` ``(T, B, H)`` of one layer-direction and the final cell state ``(B, H)``;
    ``b = b_ih + b_hh`` and the input projection ``W_ih x_t + b`` is computed inside the loop."""
    spec = jax.ShapeDtypeStruct((*x.shape[:2], w_hh.shape[1]), x.dtype)
    return call(LSTM_TARGETS[0], (spec, spec_of(c0)), x, w_ih, b, w_hh, h0, c0, reverse=reverse, threads=threads)


def forward_keeping_gates(x: jax.Array, w_ih: jax.Array, b: jax.Array, w_hh: jax.Array, h0: jax.Array,
                          c0: jax.Array, reverse: bool, threads: int):
    """`forward`, returning every ``h`` and ``c`` ``(T, B, H)`` and, for the backward, each step's
    gates ``i, f, g, o`` ``(T, B, 4H)``: a buffer of that shape for `backward` alone, its floats in
    the kernel's own order (by blocks of 8 units, lstm_cpu.cc). ``tanh(c)`` is not kept: the
    backward computes it again from ``c``, bit for bit as the forward did."""
    t, b_, h = *x.shape[:2], w_hh.shape[1]
    spec = jax.ShapeDtypeStruct((t, b_, h), x.dtype)
    hs, cs, gates = call(LSTM_TARGETS[1], (spec, spec, jax.ShapeDtypeStruct((t, b_, 4 * h), x.dtype)),
                         x, w_ih, b, w_hh, h0, c0, reverse=reverse, threads=threads)
    return hs, cs, gates


def backward(d_hs: jax.Array, dc_n: jax.Array, gates: jax.Array, cs: jax.Array, c0: jax.Array, w_hh: jax.Array,
             hs: jax.Array, h0: jax.Array, x: jax.Array, w_ih: jax.Array, reverse: bool, threads: int):
    """The gradients of one layer-direction's input ``x``, of ``W_ih``, ``W_hh``, of the bias
    (``b_ih``'s and ``b_hh``'s alike), of ``h0`` and of ``c0``. The weight gradients are summed
    inside the loop, a block of steps at a time, so no ``(T, B, 4H)`` gradient is handed back to XLA.
    ``gates`` is what `forward_keeping_gates` kept."""
    bias = jax.ShapeDtypeStruct((w_hh.shape[0],), w_hh.dtype)
    # The operands and results every backward takes first, then the LSTM's own (rnn_handlers.h).
    d_x, d_w_ih, d_w_hh, dh0, d_b, dc0 = call(
        LSTM_TARGETS[2], (spec_of(x), spec_of(w_ih), spec_of(w_hh), spec_of(h0), bias, spec_of(c0)),
        d_hs, hs, h0, w_hh, x, w_ih, dc_n, gates, cs, c0, reverse=reverse, threads=threads)
    return d_x, d_w_ih, d_w_hh, d_b, dh0, dc0
