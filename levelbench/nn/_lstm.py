"""`LSTM`: a multi-layer LSTM in JAX with `torch.nn.LSTM`'s equations, options and weight layout.

Equations (per layer and direction; ``*`` is elementwise, gate order i | f | g | o everywhere)::

    i_t = sigmoid(W_ii x_t + b_ii + W_hi h_{t-1} + b_hi)
    f_t = sigmoid(W_if x_t + b_if + W_hf h_{t-1} + b_hf)
    g_t = tanh(W_ig x_t + b_ig + W_hg h_{t-1} + b_hg)
    o_t = sigmoid(W_io x_t + b_io + W_ho h_{t-1} + b_ho)
    c_t = f_t * c_{t-1} + i_t * g_t
    h_t = o_t * tanh(c_t)                 (with proj_size: h_t = W_hr (o_t * tanh(c_t)))

Parameters are a dict keyed by torch's names (``weight_ih_l0``, ``bias_hh_l1_reverse``,
``weight_hr_l0``...) with torch's shapes, so ``torch_module.state_dict()`` and ``params`` hold the
same arrays and the gradients of ``params`` compare directly with torch's ``.grad``.

How it runs: as the GRU does (`._gru`), in float32 on CPU each layer-direction's recurrence is one
call into the native kernel (`._lstm_native`), elsewhere XLA loops, with a hand-written backward
pass either way (`._lstm_layer`). With ``proj_size`` it runs as a ``lax.scan`` that JAX
differentiates.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import jax  # heavy, and optional for levelbench: levelbench.nn says how to install it
import jax.numpy as jnp

from . import _rnn, _rnn_kernel
from ._lstm_layer import layer, layer_autodiff

LSTMParams = dict[str, jax.Array]
"""``{torch parameter name: array}``, e.g. ``params["weight_hh_l0"]`` is ``(4 * hidden, hidden)``."""


@dataclasses.dataclass(frozen=True)
class LSTM(_rnn.RNNConfig):
    """A multi-layer LSTM with `torch.nn.LSTM`'s options; a hashable value, so it can be static.

    Attributes:
        proj_size: if > 0, ``h`` is projected to this many features by ``weight_hr_l*``
            ``(proj_size, hidden_size)``; must be below ``hidden_size``, as in torch.
        dtype: the parameters' dtype for `init`, one of `GRU.dtype`'s.

    !!! Example
        ```python
        lstm = LSTM(input_size=6, hidden_size=200, num_layers=2)
        params = lstm.init(jax.random.key(0))
        out, (h_n, c_n) = jax.jit(lstm.apply)(params, x)  # x: (seq, batch, 6)
        ```
    """

    _gates: ClassVar[int] = 4

    proj_size: int = 0
    dtype: str = "float32"

    def __post_init__(self) -> None:
        if not isinstance(self.proj_size, int) or isinstance(self.proj_size, bool) or self.proj_size < 0:
            raise ValueError(f"LSTM proj_size must be an int >= 0 (0: no projection), got {self.proj_size!r}")
        if self.proj_size and isinstance(self.hidden_size, int) and self.proj_size >= self.hidden_size:
            raise ValueError(f"LSTM proj_size must be smaller than hidden_size ({self.hidden_size}), as in "
                             f"torch, got {self.proj_size}")
        super().__post_init__()

    @property
    def output_size(self) -> int:
        """Features of ``h`` per direction: ``proj_size`` if set, else ``hidden_size``."""
        return self.proj_size or self.hidden_size

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's torch name and shape, in torch's order."""
        return _rnn.param_shapes(self, self._gates, self.proj_size)

    def apply(
        self, params: LSTMParams, x: jax.Array, hx: tuple[jax.Array, jax.Array] | None = None
    ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        """Run the LSTM over a sequence; returns ``(output, (h_n, c_n))`` as ``torch.nn.LSTM`` does.

        Args:
            params: from `init`, `from_torch` or a Flax `LSTMModule`'s ``params``.
            x: ``(seq, batch, input_size)``, or ``(batch, seq, input_size)`` with ``batch_first``,
                or unbatched ``(seq, input_size)``; its dtype must be the parameters'.
            hx: ``(h0, c0)``: ``h0`` is ``(num_layers * num_directions, batch, output_size)`` and
                ``c0`` ``(num_layers * num_directions, batch, hidden_size)`` (unbatched: without
                the batch axis); zeros when omitted.

        Returns:
            ``output``: the last layer's ``h`` at every step, ``(seq, batch, num_directions *
            output_size)`` (batch first if ``batch_first``); ``h_n`` and ``c_n``: every
            layer-direction's final states, shaped like ``h0`` and ``c0``.
        """
        return _apply(self, params, x, hx)


def _apply(config: LSTM, params: LSTMParams, x: jax.Array, hx: Any,
           kernel: _rnn_kernel.Kernel | None = None) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
    run = _rnn.prepare(config, params, x, kernel)
    if hx is None:
        h0 = c0 = None
    elif isinstance(hx, (tuple, list)) and len(hx) == 2:
        h0, c0 = hx
    else:
        got = f"a {type(hx).__name__} of {len(hx)}" if isinstance(hx, (tuple, list)) else type(hx).__name__
        raise TypeError(f"expected hx as a tuple (h0, c0), as torch.nn.LSTM takes it, got {got}")
    h0 = _rnn.initial_state("h0", h0, run.states, run.batch, config.output_size, run.dtype,
                            run.unbatched, "proj_size" if config.proj_size else "hidden_size")
    c0 = _rnn.initial_state("c0", c0, run.states, run.batch, config.hidden_size, run.dtype, run.unbatched)

    def direction(layer_input: jax.Array, suffix: str, state: int, reverse: bool) -> tuple[jax.Array, jax.Array]:
        args = (layer_input, *_rnn.weights(params, suffix), h0[state], c0[state], reverse, run.kernel)
        if config.proj_size:
            return layer_autodiff(*args, w_hr=params[f"weight_hr{suffix}"])
        return (layer if run.kernel.custom_vjp else layer_autodiff)(*args)

    output, h_n, c_finals = _rnn.stack(config, run.x, direction)
    c_n = jnp.stack(c_finals)
    if run.unbatched:
        h_n, c_n = h_n[:, 0], c_n[:, 0]
    return _rnn.batch_layout(config, output, run.unbatched), (h_n, c_n)
