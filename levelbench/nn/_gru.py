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

try:
    import jax  # heavy, and optional for levelbench: imported when levelbench.nn's GRU is used
except ModuleNotFoundError as error:  # pragma: no cover - exercised only without jax
    raise ImportError("levelbench needs jax for this: pip install 'levelbench[jax]'") from error

from . import _rnn, _rnn_kernel
from ._gru_layer import layer, layer_autodiff

GRUParams = dict[str, jax.Array]
"""``{torch parameter name: array}``, e.g. ``params["weight_hh_l0"]`` is ``(3 * hidden, hidden)``."""


@dataclasses.dataclass(frozen=True)
class GRU:
    """A multi-layer GRU with `torch.nn.GRU`'s options; a hashable value, so it can be static.

    Attributes:
        input_size: features of each input step.
        hidden_size: features of the state ``h``.
        num_layers: stacked layers; layer ``l + 1`` reads layer ``l``'s outputs.
        bias: whether the ``bias_ih_*`` / ``bias_hh_*`` parameters exist.
        batch_first: inputs and outputs are ``(batch, seq, feature)`` instead of
            ``(seq, batch, feature)``. As in torch, ``h0`` and ``h_n`` stay ``(layers * dirs, batch,
            hidden)`` either way.
        bidirectional: run each layer forwards and backwards over time and concatenate the two.
        dtype: the parameters' dtype for `init` (``"float32"``, ``"bfloat16"``, ``"float64"``,
            ``"float16"``; float64 needs ``jax.config.update("jax_enable_x64", True)``).

    !!! Example
        ```python
        gru = GRU(input_size=6, hidden_size=200, num_layers=2)
        params = gru.init(jax.random.key(0))
        out, h_n = jax.jit(gru.apply)(params, x)  # x: (seq, batch, 6)
        ```
    """

    input_size: int
    hidden_size: int
    num_layers: int = 1
    bias: bool = True
    batch_first: bool = False
    bidirectional: bool = False
    dtype: str = "float32"

    def __post_init__(self) -> None:
        _rnn.check_config(self)

    @property
    def num_directions(self) -> int:
        return 2 if self.bidirectional else 1

    def param_shapes(self) -> dict[str, tuple[int, ...]]:
        """Every parameter's torch name and shape, in torch's order."""
        return _rnn.param_shapes(self, 3)

    def init(self, key: jax.Array) -> GRUParams:
        """Parameters drawn as torch draws them: every entry uniform in ``±1/sqrt(hidden_size)``."""
        return _rnn.init(self, key)

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
    dtype = _rnn.check_params(config, params)
    x, unbatched = _rnn.time_major(config, x, dtype)
    batch = x.shape[1]
    states = config.num_layers * config.num_directions
    h0 = _rnn.initial_state("h0", h0, states, batch, config.hidden_size, dtype, unbatched)

    if kernel is None:
        kernel = _rnn_kernel.choose(batch=batch, hidden=config.hidden_size, dtype=dtype)
    run = layer if kernel.custom_vjp else layer_autodiff

    def direction(layer_input: jax.Array, suffix: str, state: int, reverse: bool) -> tuple[jax.Array, None]:
        return run(layer_input, *_rnn.weights(params, suffix), h0[state], reverse, kernel), None

    output, h_n, _ = _rnn.stack(config, x, direction)
    return _rnn.batch_layout(config, output, unbatched), (h_n[:, 0] if unbatched else h_n)
