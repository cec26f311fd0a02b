"""One GRU layer in one direction: the input projection, the recurrence and a hand-written VJP.

The recurrence runs in the native CPU kernel (`._gru_native`) when ``kernel.native``, else as the
XLA loops below. The kernel's backward also sums the weight gradients and ``dx`` itself; the XLA
loops leave them to `_parameter_gradients`.

Forward: ``W_ih x_t + b`` for all steps at once (one large GEMM, or broadcast multiply-adds for
a handful of input features), then a compiled loop whose step is the recurrent GEMM and one
elementwise fusion. Backward (``jax.custom_vjp``): a reverse loop that carries only ``dh``, with
one ``(B, 3H) x (3H, H)`` GEMM per step, leaves the gate gradients behind, and every weight
gradient is then one large GEMM over all steps, instead of autodiff's rank-B update per step.

Arrays are time-major and batch-major: ``x`` is ``(T, B, in)``, states are ``(B, H)``. Loops
write their results over input slices they no longer need (see `_loop`).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import jax
import jax.numpy as jnp

from . import _gru_native
from ._rnn_kernel import Kernel
from ._rnn_native import thread_count

# Below this many input features the projection runs as broadcast multiply-adds: XLA:CPU ran
# the 8000 x 6 x 600 GEMM of the seed's first layer at a few percent of peak (~10 ms, 2-4 ms so).
SMALL_INPUT = 16


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
    fan_in = x.shape[-1]
    blocks = _split(w_ih)
    if fan_in <= SMALL_INPUT:
        parts = [sum(x[..., i:i + 1] * w[:, i] for i in range(fan_in)) for w in blocks]
    else:
        parts = [jnp.einsum("tbi,hi->tbh", x, w) for w in blocks]
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


def _loop(length: int, reverse: bool, unroll: int, body, carry):
    """``body(t, carry)`` for t = 0..T-1 (T-1..0 if ``reverse``) in a compiled loop.

    A ``fori_loop`` over arrays carried in the loop state rather than a ``scan`` with stacked
    outputs: each step reads its slice of an input and writes its results over slices that are
    no longer needed, so XLA updates the buffers in place instead of allocating, zero-filling and
    copying fresh ones. XLA:CPU hands its temporaries back to the OS after every call, so each
    fresh buffer costs page faults on every call (docs/design/gru.md).
    """
    def step(i, carry):
        return body(length - 1 - i if reverse else i, carry)

    return jax.lax.fori_loop(0, length, step, carry, unroll=unroll)


def _at(a: jax.Array, t: jax.Array) -> jax.Array:
    return jax.lax.dynamic_index_in_dim(a, t, keepdims=False)


def _put(a: jax.Array, value: jax.Array, t: jax.Array) -> jax.Array:
    return jax.lax.dynamic_update_index_in_dim(a, value, t, 0)


def _forward(gates: Gates, w_hh: jax.Array, b_hn: jax.Array, h0: jax.Array, reverse: bool,
             gemms: int, unroll: int) -> jax.Array:
    """The recurrence; the states overwrite ``gates.r`` step by step."""
    w = _step_weights(w_hh, gemms)

    def body(t, carry):
        h, out = carry
        gi = Gates(_at(out, t), _at(gates.z, t), _at(gates.n, t))
        _, z, n, _ = _gates(gi, _hidden_projection(h, w), b_hn)
        h = n + z * (h - n)
        return h, _put(out, h, t)

    return _loop(gates.r.shape[0], reverse, unroll, body, (h0, gates.r))[1]


def _forward_keeping_gates(gates: Gates, w_hh: jax.Array, b_hn: jax.Array, h0: jax.Array,
                           reverse: bool, gemms: int):
    """The recurrence, also keeping every step's ``r, z, n`` (over the input gates) and
    ``W_hn h + b_hn``, so that the backward pass needs no transcendental functions."""
    w = _step_weights(w_hh, gemms)

    def body(t, carry):
        h, hs, r_, z_, n_, hn_ = carry
        r, z, n, hn = _gates(Gates(_at(r_, t), _at(z_, t), _at(n_, t)), _hidden_projection(h, w), b_hn)
        h = n + z * (h - n)
        return h, _put(hs, h, t), _put(r_, r, t), _put(z_, z, t), _put(n_, n, t), _put(hn_, hn, t)

    fresh = jnp.zeros_like(gates.r)
    _, hs, r, z, n, hn = _loop(gates.r.shape[0], reverse, 1, body, (h0, fresh, *gates, fresh))
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
        h_prev = _previous_states(hs, h0, reverse)
        (d_r, d_z, d_a, d_hn), dh0 = _backward_loop(d_hs, activations, h_prev, h0, reverse,
                                                    w_hh, kernel.gemms)
        d_ih = jnp.concatenate([d_r, d_z, d_a], axis=-1)
        d_hh = jnp.concatenate([d_r, d_z, d_hn], axis=-1)
        d_x, d_w_ih, d_w_hh, d_b_ih, d_b_hh = _parameter_gradients(x, w_ih, b_ih is not None, h_prev, d_ih, d_hh)
    return (d_x.astype(x.dtype), d_w_ih.astype(w_ih.dtype), d_w_hh.astype(w_hh.dtype),
            None if b_ih is None else d_b_ih.astype(b_ih.dtype),
            None if b_hh is None else d_b_hh.astype(b_hh.dtype), dh0)


def _previous_states(hs: jax.Array, h0: jax.Array, reverse: bool) -> jax.Array:
    """The state each step started from: ``h_{t-1}`` (``h_{t+1}`` if ``reverse``), ``h0`` first."""
    if reverse:
        return jnp.concatenate([hs[1:], h0[None]], axis=0)
    return jnp.concatenate([h0[None], hs[:-1]], axis=0)


def _backward_loop(d_hs, activations, h_prev, h0, reverse, w_hh, gemms):
    """The reverse recurrence as an XLA loop: the gate pre-activations' gradients and ``dh0``."""
    w = _split(w_hh) if gemms == 3 else (w_hh,)
    length = h_prev.shape[0]
    step_back = 1 if reverse else -1  # the backward loop walks time against the forward one

    def read(buffers, t):
        return tuple(_at(b, t) for b in buffers) + (_at(h_prev, t), _at(d_hs, t))

    def body(t, carry):
        d_next, buffers, (r, z, n, hn, h_before, d_out) = carry
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
        # The gradients overwrite the activations they came from. This step's slices were read
        # one iteration earlier and the next step's are read from the updated buffers: were a
        # slice read in the same iteration that overwrites its buffer, XLA would copy the four
        # (T, B, H) buffers on every step to keep them readable (~25x slower).
        buffers = tuple(_put(b, d, t) for b, d in zip(buffers, (d_r, d_z, d_a, d_hn)))
        ahead = jnp.clip(t + step_back, 0, length - 1)
        return dh * z + back, buffers, read(buffers, ahead)

    first = length - 1 if not reverse else 0
    dh0, (d_r, d_z, d_a, d_hn), _ = _loop(
        length, not reverse, 1, body,
        (jnp.zeros_like(h0), activations, read(activations, first)))
    return (d_r, d_z, d_a, d_hn), dh0


def _parameter_gradients(x, w_ih, bias: bool, h_prev, d_ih, d_hh):
    """The gradients of x, W_ih, W_hh, b_ih and b_hh (None without ``bias``) from the gate
    gradients ``d_ih = [d_r | d_z | d_a]`` and ``d_hh = [d_r | d_z | d_hn]``, each ``(T, B, 3H)``:
    every one is a single GEMM (or sum) over all T * B rows. One (in, T*B) x (T*B, 3H) GEMM per
    weight ran in 0.6x the time of three per-gate einsums."""
    rows = d_ih.shape[0] * d_ih.shape[1]
    flat_ih, flat_hh = d_ih.reshape(rows, -1), d_hh.reshape(rows, -1)
    d_w_ih = (x.reshape(rows, -1).T @ flat_ih).T
    d_w_hh = (h_prev.reshape(rows, -1).T @ flat_hh).T
    d_b_ih, d_b_hh = (jnp.sum(flat_ih, axis=0), jnp.sum(flat_hh, axis=0)) if bias else (None, None)
    return d_ih @ w_ih, d_w_ih, d_w_hh, d_b_ih, d_b_hh


layer.defvjp(_layer_fwd, _layer_bwd)
