"""One LSTM layer in one direction: the input projection, the recurrence and a hand-written VJP.

Built like the GRU's (`._gru_layer`), on the same projection, loops and weight gradients
(`._rnn_layer`): the recurrence runs in the native CPU kernel (`._lstm_native`) when
``kernel.native``, else as the XLA loops below, and the backward pass is one reverse loop that
carries ``dh`` and ``dc``. The XLA loop leaves the gate gradients behind, after which every weight
gradient is one large GEMM over all steps; the kernel sums the weight gradients and ``dx`` itself,
a block of steps at a time.

In an LSTM both biases are added outside the gates' products, so one gate gradient
``[d_i | d_f | d_g | d_o]`` serves ``W_ih``, ``W_hh``, ``b_ih`` and ``b_hh`` (the GRU needs two).

With ``proj_size`` (``h_t = W_hr (o_t * tanh(c_t))``) the layer runs as a plain ``lax.scan``
that JAX differentiates itself (`layer_autodiff`): correct, not tuned.
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp

from . import _lstm_native
from ._rnn_kernel import Kernel
from ._rnn_layer import project as project_gates
from ._rnn_layer import at, backward_loop, loop, parameter_gradients, previous_states, put
from ._rnn_native import thread_count


class Gates(NamedTuple):
    """One array per gate (input, forget, cell, output), each ``(..., B, H)``; separate arrays
    for the reason the GRU's are (slicing one ``(B, 4H)`` per step slowed XLA:CPU's fusion)."""

    i: jax.Array
    f: jax.Array
    g: jax.Array
    o: jax.Array


def _split(a: jax.Array, axis: int = 0) -> Gates:
    return Gates(*jnp.split(a, 4, axis=axis))


def bias(b_ih: jax.Array | None, b_hh: jax.Array | None, w_hh: jax.Array) -> jax.Array:
    """``b_ih + b_hh`` (both sit outside the products), zeros without biases."""
    return jnp.zeros(w_hh.shape[:1], w_hh.dtype) if b_ih is None else b_ih + b_hh


def project(x: jax.Array, w_ih: jax.Array, b: jax.Array) -> Gates:
    """``W_ih x_t + b_ih + b_hh`` for every step, per gate."""
    return Gates(*(p + bb for p, bb in zip(project_gates(x, w_ih, 4), _split(b))))


def _cell(gi: Gates, gh: jax.Array, c: jax.Array):
    """One step from the input part ``gi`` and the recurrent part ``gh = h W_hh^T`` ``(B, 4H)``:
    the gates, the new cell state and ``tanh`` of it."""
    hh = _split(gh, axis=-1)
    i = jax.nn.sigmoid(gi.i + hh.i)
    f = jax.nn.sigmoid(gi.f + hh.f)
    g = jnp.tanh(gi.g + hh.g)
    o = jax.nn.sigmoid(gi.o + hh.o)
    c = f * c + i * g
    return i, f, g, o, c, jnp.tanh(c)


def _forward(gates: Gates, w_hh: jax.Array, h0: jax.Array, c0: jax.Array, reverse: bool, unroll: int):
    """The recurrence; the states overwrite ``gates.i`` step by step. Returns ``(hs, c_n)``."""
    w = w_hh.T

    def body(t, carry):
        h, c, out = carry
        _, _, _, o, c, tc = _cell(Gates(at(out, t), at(gates.f, t), at(gates.g, t), at(gates.o, t)),
                                  h @ w, c)
        h = o * tc
        return h, c, put(out, h, t)

    _, c_n, hs = loop(gates.i.shape[0], reverse, unroll, body, (h0, c0, gates.i))
    return hs, c_n


def _forward_keeping_gates(gates: Gates, w_hh: jax.Array, h0: jax.Array, c0: jax.Array, reverse: bool):
    """The recurrence, also keeping every step's cell state and ``i, f, g, o, tanh(c)`` (the gates
    over their inputs), so that the backward pass needs no transcendental functions."""
    w = w_hh.T

    def body(t, carry):
        h, c, hs, cs, i_, f_, g_, o_, tc_ = carry
        i, f, g, o, c, tc = _cell(Gates(at(i_, t), at(f_, t), at(g_, t), at(o_, t)), h @ w, c)
        h = o * tc
        return (h, c, put(hs, h, t), put(cs, c, t), put(i_, i, t), put(f_, f, t), put(g_, g, t),
                put(o_, o, t), put(tc_, tc, t))

    fresh = jnp.zeros_like(gates.i)
    _, _, hs, cs, i, f, g, o, tc = loop(gates.i.shape[0], reverse, 1, body,
                                        (h0, c0, fresh, fresh, *gates, fresh))
    return hs, cs, (i, f, g, o, tc)


@functools.partial(jax.custom_vjp, nondiff_argnums=(7, 8))
def layer(x: jax.Array, w_ih: jax.Array, w_hh: jax.Array, b_ih: jax.Array | None, b_hh: jax.Array | None,
          h0: jax.Array, c0: jax.Array, reverse: bool, kernel: Kernel) -> tuple[jax.Array, jax.Array]:
    """Every step's ``h`` ``(T, B, H)`` of one layer-direction and its final cell state ``(B, H)``,
    parameters in torch's layout. ``reverse=True`` runs from the last step to the first and
    returns the states in input order, as ``torch.nn.LSTM``'s backward direction does."""
    b = bias(b_ih, b_hh, w_hh)
    if kernel.native:
        return _lstm_native.forward(x, w_ih, b, w_hh, h0, c0, reverse, thread_count(kernel.threads))
    return _forward(project(x, w_ih, b), w_hh, h0, c0, reverse, kernel.unroll)


def layer_autodiff(x: jax.Array, w_ih: jax.Array, w_hh: jax.Array, b_ih: jax.Array | None,
                   b_hh: jax.Array | None, h0: jax.Array, c0: jax.Array, reverse: bool, kernel: Kernel,
                   w_hr: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
    """`layer` as a plain ``lax.scan`` for JAX to differentiate itself, optionally with torch's
    projection ``h_t = W_hr (o_t * tanh(c_t))`` (``w_hr`` is ``(proj_size, H)``)."""
    w = w_hh.T

    def step(carry, gi: Gates):
        h, c = carry
        _, _, _, o, c, tc = _cell(gi, h @ w, c)
        h = o * tc if w_hr is None else (o * tc) @ w_hr.T
        return (h, c), h

    gates = project(x, w_ih, bias(b_ih, b_hh, w_hh))
    (_, c_n), hs = jax.lax.scan(step, (h0, c0), gates, reverse=reverse, unroll=kernel.unroll)
    return hs, c_n


def _layer_fwd(x, w_ih, w_hh, b_ih, b_hh, h0, c0, reverse, kernel):
    b = bias(b_ih, b_hh, w_hh)
    if kernel.native:
        hs, cs, activations = _lstm_native.forward_keeping_gates(x, w_ih, b, w_hh, h0, c0, reverse,
                                                                 thread_count(kernel.threads))
    else:
        hs, cs, activations = _forward_keeping_gates(project(x, w_ih, b), w_hh, h0, c0, reverse)
    c_n = cs[0] if reverse else cs[-1]
    return (hs, c_n), (x, w_ih, w_hh, b_ih, b_hh, h0, c0, hs, cs, activations)


def _layer_bwd(reverse, kernel, residuals, cotangents):
    x, w_ih, w_hh, b_ih, b_hh, h0, c0, hs, cs, activations = residuals
    d_hs, dc_n = cotangents
    if kernel.native:
        d_x, d_w_ih, d_w_hh, d_b, dh0, dc0 = _lstm_native.backward(
            d_hs, dc_n, activations, cs, c0, w_hh, hs, h0, x, w_ih, reverse, thread_count(kernel.threads))
    else:
        d_gates, dh0, dc0 = _backward_loop(d_hs, dc_n, activations, previous_states(cs, c0, reverse),
                                           reverse, w_hh)
        d_x, d_w_ih, d_w_hh, d_b, _ = parameter_gradients(x, w_ih, True, previous_states(hs, h0, reverse),
                                                          d_gates, d_gates)
    d_b = None if b_ih is None else d_b
    return (d_x, d_w_ih.astype(w_ih.dtype), d_w_hh.astype(w_hh.dtype),
            None if d_b is None else d_b.astype(b_ih.dtype), None if d_b is None else d_b.astype(b_hh.dtype),
            dh0, dc0)


def _backward_loop(d_hs, dc_n, activations, c_prev, reverse, w_hh):
    """The reverse recurrence as an XLA loop: the gate pre-activations' gradients ``(T, B, 4H)``,
    ``dh0`` and ``dc0``."""
    i, f, g, o, tc = activations

    def step(state, slices):
        dh_next, dc = state
        ig, fg, gg, og, tct, cp, d_out = slices
        dh = d_out + dh_next
        dc = dc + dh * og * (1 - tct * tct)
        d_i = dc * gg * ig * (1 - ig)
        d_f = dc * cp * fg * (1 - fg)
        d_g = dc * ig * (1 - gg * gg)
        d_o = dh * tct * og * (1 - og)
        back = jnp.concatenate([d_i, d_f, d_g, d_o], axis=-1) @ w_hh
        return (back, dc * fg), (d_i, d_f, d_g, d_o)

    (dh0, dc0), gradients = backward_loop(reverse, step, (jnp.zeros_like(dc_n), dc_n), (i, f, g, o),
                                          (tc, c_prev, d_hs))
    return jnp.concatenate(gradients, axis=-1), dh0, dc0


layer.defvjp(_layer_fwd, _layer_bwd)
