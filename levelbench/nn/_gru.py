"""`GRU`: a multi-layer GRU in JAX with `torch.nn.GRU`'s equations, options and weight layout.

Equations (per layer and direction; ``*`` is elementwise, gate order r | z | n everywhere)::

    r_t = sigmoid(W_ir x_t + b_ir + W_hr h_{t-1} + b_hr)
    z_t = sigmoid(W_iz x_t + b_iz + W_hz h_{t-1} + b_hz)
    n_t = tanh(W_in x_t + b_in + r_t * (W_hn h_{t-1} + b_hn))
    h_t = (1 - z_t) * n_t + z_t * h_{t-1}

Parameters are a dict keyed by torch's names (``weight_ih_l0``, ``bias_hh_l1_reverse``...) with
torch's shapes, so ``torch_module.state_dict()`` and ``params`` hold the same arrays and the
gradients of ``params`` compare directly with torch's ``.grad``.

How it is fast (measured in docs/design/gru.md): in float32 on CPU, each layer-direction's whole
recurrence is one call into a native kernel (`._gru_native`) that does each step's GEMMs and gate
math in registers, on two threads; elsewhere it runs as XLA loops with the input projection
hoisted out of the loop. The backward pass is hand-written either way (`._gru_layer`).
"""

from __future__ import annotations

import dataclasses
from typing import ClassVar

import jax  # heavy, and optional for levelbench: levelbench.nn says how to install it

from . import _rnn, _rnn_kernel
from ._gru_layer import layer, layer_autodiff

GRUParams = dict[str, jax.Array]
"""``{torch parameter name: array}``, e.g. ``params["weight_hh_l0"]`` is ``(3 * hidden, hidden)``."""


@dataclasses.dataclass(frozen=True)
class GRU(_rnn.RNNConfig):
    """A multi-layer GRU with `torch.nn.GRU`'s options; a hashable value, so it can be static.

    !!! Example
        ```python
        gru = GRU(input_size=6, hidden_size=200, num_layers=2)
        params = gru.init(jax.random.key(0))
        out, h_n = jax.jit(gru.apply)(params, x)  # x: (seq, batch, 6)
        ```
    """

    _gates: ClassVar[int] = 3

    dtype: str = "float32"
    """The parameters' dtype for `init`: ``"float32"``, ``"bfloat16"``, ``"float64"`` or ``"float16"``
    (`LSTM` takes the same); float64 needs ``jax.config.update("jax_enable_x64", True)``."""

    def apply(
        self, params: GRUParams, x: jax.Array, h0: jax.Array | None = None
    ) -> tuple[jax.Array, jax.Array]:
        """Run the GRU over a sequence; returns ``(output, h_n)`` as ``torch.nn.GRU`` does.

        Args:
            params: from `init`, `from_torch` or a Flax `GRUModule`'s ``params``.
            x: ``(seq, batch, input_size)``, or ``(batch, seq, input_size)`` with ``batch_first``,
                or unbatched ``(seq, input_size)``; its dtype must be the parameters'.
            h0: initial states ``(num_layers * num_directions, batch, hidden_size)`` (unbatched:
                without the batch axis); zeros when omitted.

        Returns:
            ``output``: the last layer's state at every step, ``(seq, batch, num_directions *
            hidden_size)`` (batch first if ``batch_first``); ``h_n``: every layer-direction's
            final state, shaped like ``h0``.
        """
        return _apply(self, params, x, h0)


def _apply(
    config: GRU, params: GRUParams, x: jax.Array, h0: jax.Array | None,
    kernel: _rnn_kernel.Kernel | None = None,
) -> tuple[jax.Array, jax.Array]:
    run = _rnn.prepare(config, params, x, kernel)
    h0 = _rnn.initial_state("h0", h0, run.states, run.batch, config.hidden_size, run.dtype, run.unbatched)
    layer_of = layer if run.kernel.custom_vjp else layer_autodiff

    def direction(layer_input: jax.Array, suffix: str, state: int, reverse: bool) -> tuple[jax.Array, None]:
        return layer_of(layer_input, *_rnn.weights(params, suffix), h0[state], reverse, run.kernel), None

    output, h_n, _ = _rnn.stack(config, run.x, direction)
    return _rnn.batch_layout(config, output, run.unbatched), (h_n[:, 0] if run.unbatched else h_n)
