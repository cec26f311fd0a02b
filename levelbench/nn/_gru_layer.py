"""One GRU layer in one direction: the input projection, the recurrence and a hand-written VJP.

The recurrence runs in the native CPU kernel (`._gru_native`) when ``kernel.native``, else as the
XLA loops below. The kernel's backward also sums the weight gradients and ``dx`` itself; the XLA
loops leave them to `._rnn_layer.parameter_gradients`.

Forward: ``W_ih x_t + b`` for all steps at once (one large GEMM, or broadcast multiply-adds for
a handful of input features), then a compiled loop whose step is the recurrent GEMM and one
elementwise fusion. Backward (``jax.custom_vjp``): a reverse loop that carries only ``dh``, with
one ``(B, 3H) x (3H, H)`` GEMM per step, leaves the gate gradients behind, and every weight
gradient is then one large GEMM over all steps, instead of autodiff's rank-B update per step.

Arrays are time-major and batch-major: ``x`` is ``(T, B, in)``, states are ``(B, H)``. Loops
write their results over input slices they no longer need (see `._rnn_layer.loop`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp

from . import _gru_native
from ._rnn_kernel import Kernel
from ._rnn_layer import SMALL_INPUT as SMALL_INPUT
from ._rnn_layer import project as project_gates
from ._rnn_layer import at, backward_loop, loop, parameter_gradients, previous_states, put
from ._rnn_native import thread_count


class Gates(NamedTuple):
    """One array per gate (reset, update, new), each ``(..., B, H)``.

    Separate arrays rather than one ``(T, B, 3H)``: slicing each step's ``(B, 3H)`` three ways
    inside the step fusion made that fusion ~8x slower under XLA:CPU (docs/design/gru.md).
    """

    r: jax.Array
    z: jax.Array
    n: jax.Array


def _split(a: jax.Array, axis: int = 0) -> Gates:
    return Gates(*jnp.split(a, 3, axis=axis))


def project(x: jax.Array, w_ih: jax.Array, b_ih: jax.Array | None, b_hh: jax.Array | None) -> Gates:
    """``W_ih x_t`` plus biases for every step; ``b_hn`` is left out (it sits inside ``r * ...``)."""
    parts = project_gates(x, w_ih, 3)
    if b_ih is None:
        return Gates(*parts)
    bi, bh = _split(b_ih), _split(b_hh)
    return Gates(parts[0] + bi.r + bh.r, parts[1] + bi.z + bh.z, parts[2] + bi.n)


def _step_weights(w_hh: jax.Array, gemms: int) -> tuple[jax.Array, ...]:
    """``W_hh^T`` as 1 fused ``(H, 3H)`` block or 3 per-gate ``(H, H)`` blocks (loop-invariant)."""
    return (w_hh.T,) if gemms == 1 else tuple(w.T for w in _split(w_hh))


def _hidden_projection(h: jax.Array, w: tuple[jax.Array, ...]) -> Gates:
    products = [h @ block for block in w]
    return Gates(*products) if len(products) == 3 else _split(products[0], axis=-1)


def _gates(gi: Gates, gh: Gates, b_hn: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array, jax.Array]:
    r = jax.nn.sigmoid(gi.r + gh.r)
    z = jax.nn.sigmoid(gi.z + gh.z)
    hn = gh.n + b_hn
    n = jnp.tanh(gi.n + r * hn)
    return r, z, n, hn


def _forward(gates: Gates, w_hh: jax.Array, b_hn: jax.Array, h0: jax.Array, reverse: bool,
             gemms: int, unroll: int) -> jax.Array:
    """The recurrence; the states overwrite ``gates.r`` step by step."""
    w = _step_weights(w_hh, gemms)

    def body(t, carry):
        h, out = carry
        gi = Gates(at(out, t), at(gates.z, t), at(gates.n, t))
        _, z, n, _ = _gates(gi, _hidden_projection(h, w), b_hn)
        h = n + z * (h - n)
        return h, put(out, h, t)

    return loop(gates.r.shape[0], reverse, unroll, body, (h0, gates.r))[1]


def _forward_keeping_gates(gates: Gates, w_hh: jax.Array, b_hn: jax.Array, h0: jax.Array,
                           reverse: bool, gemms: int):
    """The recurrence, also keeping every step's ``r, z, n`` (over the input gates) and
    ``W_hn h + b_hn``, so that the backward pass needs no transcendental functions."""
    w = _step_weights(w_hh, gemms)

    def body(t, carry):
        h, hs, r_, z_, n_, hn_ = carry
        r, z, n, hn = _gates(Gates(at(r_, t), at(z_, t), at(n_, t)), _hidden_projection(h, w), b_hn)
        h = n + z * (h - n)
        return h, put(hs, h, t), put(r_, r, t), put(z_, z, t), put(n_, n, t), put(hn_, hn, t)

    fresh = jnp.zeros_like(gates.r)
    _, hs, r, z, n, hn = loop(gates.r.shape[0], reverse, 1, body, (h0, fresh, *gates, fresh))
    return hs, (r, z, n, hn)


@functools.partial(jax.custom_vjp, nondiff_argnums=(6, 7))
def layer(x: jax.Array, w_ih: jax.Array, w_hh: jax.Array, b_ih: jax.Array | None,
          b_hh: jax.Array | None, h0: jax.Array, reverse: bool, kernel: Kernel) -> jax.Array:
    """Every step's state ``(T, B, H)`` of one layer-direction, parameters in torch's layout.

    ``reverse=True`` runs from the last step to the first and returns the states in input order,
    as ``torch.nn.GRU``'s backward direction does. ``kernel`` chooses how the loops run, not what
    they compute.
    """
    b_hn = _b_hn(b_hh, w_hh)
    if kernel.native:
        return _gru_native.forward(x, w_ih, _b_x(b_ih, b_hh, w_hh), w_hh, b_hn, h0, reverse,
                                   thread_count(kernel.threads))
    gates = project(x, w_ih, b_ih, b_hh)
    return _forward(gates, w_hh, b_hn, h0, reverse, kernel.gemms, kernel.unroll)


def layer_autodiff(x: jax.Array, w_ih: jax.Array, w_hh: jax.Array, b_ih: jax.Array | None,
                   b_hh: jax.Array | None, h0: jax.Array, reverse: bool, kernel: Kernel) -> jax.Array:
    """`layer` as a plain ``lax.scan``, for JAX to differentiate itself: the baseline the
    hand-written backward pass is measured against (benchmarks/gru.py --kernels)."""
    w, b_hn = _step_weights(w_hh, kernel.gemms), _b_hn(b_hh, w_hh)

    def step(h: jax.Array, gi: Gates):
        _, z, n, _ = _gates(gi, _hidden_projection(h, w), b_hn)
        h = n + z * (h - n)
        return h, h

    gates = project(x, w_ih, b_ih, b_hh)
    return jax.lax.scan(step, h0, gates, reverse=reverse, unroll=kernel.unroll)[1]


def _b_hn(b_hh: jax.Array | None, w_hh: jax.Array) -> jax.Array:
    return jnp.zeros(w_hh.shape[1:], w_hh.dtype) if b_hh is None else _split(b_hh).n


def _b_x(b_ih: jax.Array | None, b_hh: jax.Array | None, w_hh: jax.Array) -> jax.Array:
    """The bias added to ``W_ih x_t``: ``[b_ir + b_hr, b_iz + b_hz, b_in]`` (``b_hn`` stays inside
    ``r * (W_hn h + b_hn)``)."""
    if b_ih is None:
        return jnp.zeros(w_hh.shape[:1], w_hh.dtype)
    hidden = w_hh.shape[1]
    return b_ih + b_hh.at[2 * hidden:].set(0)


def _layer_fwd(x, w_ih, w_hh, b_ih, b_hh, h0, reverse, kernel):
    # The loops under differentiation take one step per iteration (kernel.unroll is not used):
    # unrolled, these in-place loops went back to copying whole buffers (~15x slower).
    b_hn = _b_hn(b_hh, w_hh)
    if kernel.native:
        hs, activations = _gru_native.forward_keeping_gates(
            x, w_ih, _b_x(b_ih, b_hh, w_hh), w_hh, b_hn, h0, reverse, thread_count(kernel.threads))
    else:
        gates = project(x, w_ih, b_ih, b_hh)
        hs, activations = _forward_keeping_gates(gates, w_hh, b_hn, h0, reverse, kernel.gemms)
    return hs, (x, w_ih, w_hh, b_ih, b_hh, h0, hs, activations)


def _layer_bwd(reverse, kernel, residuals, d_hs):
    x, w_ih, w_hh, b_ih, b_hh, h0, hs, activations = residuals
    if kernel.native:
        d_x, d_w_ih, d_w_hh, d_b_ih, d_b_hh, dh0 = _gru_native.backward(
            d_hs, activations, hs, h0, w_hh, x, w_ih, reverse, thread_count(kernel.threads))
    else:
        h_prev = previous_states(hs, h0, reverse)
        (d_r, d_z, d_a, d_hn), dh0 = _backward_loop(d_hs, activations, h_prev, h0, reverse,
                                                    w_hh, kernel.gemms)
        d_ih = jnp.concatenate([d_r, d_z, d_a], axis=-1)
        d_hh = jnp.concatenate([d_r, d_z, d_hn], axis=-1)
        d_x, d_w_ih, d_w_hh, d_b_ih, d_b_hh = parameter_gradients(x, w_ih, b_ih is not None, h_prev, d_ih, d_hh)
    return (d_x.astype(x.dtype), d_w_ih.astype(w_ih.dtype), d_w_hh.astype(w_hh.dtype),
            None if b_ih is None else d_b_ih.astype(b_ih.dtype),
            None if b_hh is None else d_b_hh.astype(b_hh.dtype), dh0)


def _backward_loop(d_hs, activations, h_prev, h0, reverse, w_hh, gemms):
    """The reverse recurrence as an XLA loop: the gate pre-activations' gradients and ``dh0``."""
    w = _split(w_hh) if gemms == 3 else (w_hh,)

    def step(d_next, slices):
        r, z, n, hn, h_before, d_out = slices
        dh = d_out + d_next
        # h = n + z (h_before - n), n = tanh(a), a = gi_n + r * hn
        d_a = dh * (1 - z) * (1 - n * n)
        d_r = d_a * hn * r * (1 - r)
        d_z = dh * (h_before - n) * z * (1 - z)
        d_hn = d_a * r
        if gemms == 3:
            back = d_r @ w[0] + d_z @ w[1] + d_hn @ w[2]
        else:
            back = jnp.concatenate([d_r, d_z, d_hn], axis=-1) @ w[0]
        return dh * z + back, (d_r, d_z, d_a, d_hn)

    dh0, gradients = backward_loop(reverse, step, jnp.zeros_like(h0), activations, (h_prev, d_hs))
    return gradients, dh0


layer.defvjp(_layer_fwd, _layer_bwd)
