"""What the GRU's and the LSTM's XLA layers (`._gru_layer`, `._lstm_layer`) share: the input
projection, the in-place loops forwards and backwards, and the weight gradients as GEMMs over all
steps. Each cell keeps its own gate math; these functions know only a gate count and array shapes.

Arrays are time-major and batch-major: ``x`` is ``(T, B, in)``, states are ``(B, H)``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jax
import jax.numpy as jnp

# Below this many input features the projection runs as broadcast multiply-adds: XLA:CPU ran
# the 8000 x 6 x 600 GEMM of the seed's first layer at a few percent of peak (~10 ms, 2-4 ms so).
SMALL_INPUT = 16


def project(x: jax.Array, w_ih: jax.Array, gates: int) -> list[jax.Array]:
    """``W_ih x_t`` for every step, one ``(T, B, H)`` array per gate (biases are the cell's).

    One array per gate rather than one ``(T, B, gates * H)``: slicing each step's row three or
    four ways inside the step fusion made that fusion ~8x slower under XLA:CPU (docs/design/gru.md).
    """
    fan_in = x.shape[-1]
    blocks = jnp.split(w_ih, gates)
    if fan_in <= SMALL_INPUT:
        return [sum(x[..., i:i + 1] * w[:, i] for i in range(fan_in)) for w in blocks]
    return [jnp.einsum("tbi,hi->tbh", x, w) for w in blocks]


def loop(length: int, reverse: bool, unroll: int, body: Callable[[Any, Any], Any], carry: Any) -> Any:
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


def at(a: jax.Array, t: jax.Array) -> jax.Array:
    """Step ``t``'s slice of a time-major array."""
    return jax.lax.dynamic_index_in_dim(a, t, keepdims=False)


def put(a: jax.Array, value: jax.Array, t: jax.Array) -> jax.Array:
    """``a`` with step ``t``'s slice replaced by ``value`` (in place inside a loop)."""
    return jax.lax.dynamic_update_index_in_dim(a, value, t, 0)


def previous_states(states: jax.Array, first: jax.Array, reverse: bool) -> jax.Array:
    """The state each step started from: ``s_{t-1}`` (``s_{t+1}`` if ``reverse``), ``first`` first."""
    if reverse:
        return jnp.concatenate([states[1:], first[None]], axis=0)
    return jnp.concatenate([first[None], states[:-1]], axis=0)


def backward_loop(reverse: bool, step: Callable[[Any, tuple], tuple[Any, tuple]], state: Any,
                  activations: tuple[jax.Array, ...], inputs: tuple[jax.Array, ...]):
    """The reverse recurrence of a forward loop that ran in direction ``reverse``.

    ``step(state, slices) -> (state, gradients)`` is one step back: ``slices`` are this step's
    slices of ``activations`` then of ``inputs``; ``gradients`` (one per activation) overwrite the
    activations they came from. Returns the final ``state`` and the buffers of gradients.

    Each step's slices are read one iteration earlier, from the buffers as updated: were a slice
    read in the same iteration that overwrites its buffer, XLA would copy every ``(T, B, H)``
    buffer on every step to keep it readable (~25x slower).
    """
    length = activations[0].shape[0]
    step_back = 1 if reverse else -1  # the backward loop walks time against the forward one

    def read(buffers, t):
        return tuple(at(b, t) for b in buffers) + tuple(at(a, t) for a in inputs)

    def body(t, carry):
        state, buffers, slices = carry
        state, gradients = step(state, slices)
        buffers = tuple(put(b, d, t) for b, d in zip(buffers, gradients))
        ahead = jnp.clip(t + step_back, 0, length - 1)
        return state, buffers, read(buffers, ahead)

    first = length - 1 if not reverse else 0
    state, buffers, _ = loop(length, not reverse, 1, body, (state, activations, read(activations, first)))
    return state, buffers


def parameter_gradients(x: jax.Array, w_ih: jax.Array, bias: bool, h_prev: jax.Array,
                        d_ih: jax.Array, d_hh: jax.Array):
    """The gradients of x, W_ih, W_hh, b_ih and b_hh (None without ``bias``) from the gradients of
    the gate pre-activations, ``(T, B, gates * H)``: ``d_ih`` of ``W_ih x_t + b_ih``, ``d_hh`` of
    ``W_hh h + b_hh`` (the same array in an LSTM; the GRU's differ in the new gate). Every one is a
    single GEMM (or sum) over all T * B rows: one (in, T*B) x (T*B, gates*H) GEMM per weight ran
    in 0.6x the time of per-gate einsums."""
    rows = d_ih.shape[0] * d_ih.shape[1]
    flat_ih, flat_hh = d_ih.reshape(rows, -1), d_hh.reshape(rows, -1)
    d_w_ih = (x.reshape(rows, -1).T @ flat_ih).T
    d_w_hh = (h_prev.reshape(rows, -1).T @ flat_hh).T
    d_b_ih, d_b_hh = (jnp.sum(flat_ih, axis=0), jnp.sum(flat_hh, axis=0)) if bias else (None, None)
    return d_ih @ w_ih, d_w_ih, d_w_hh, d_b_ih, d_b_hh
