"""The `lstm` workload's model (2-layer LSTM, dense to 4, per-timestep L2 normalisation) in
PyTorch and Flax, with one set of weights: torch's, converted.

Conversion to ``flax.linen.OptimizedLSTMCell`` (and ``LSTMCell``, which names its parameters the
same): its ``ii``/``if``/``ig``/``io`` Dense layers hold ``W_i{i,f,g,o}^T`` without bias, and
``hi``/``hf``/``hg``/``ho`` hold ``W_h{i,f,g,o}^T`` with bias ``b_i* + b_h*`` (torch's two biases
add up in every gate). Flax's carry is ``(c, h)``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from . import _rnn_models
from ._rnn_models import to_numpy


torch_model = functools.partial(_rnn_models.torch_model, "LSTM")
"""``torch_model(hidden, features, out, layers, seed)``: the `lstm` workload's torch model (``model.lstm``)."""


def flax_cell_params(lstm: Any, layer: int) -> dict[str, Any]:
    """One layer of a ``torch.nn.LSTM`` as ``OptimizedLSTMCell`` parameters."""
    w_ih = np.split(to_numpy(getattr(lstm, f"weight_ih_l{layer}")), 4)
    w_hh = np.split(to_numpy(getattr(lstm, f"weight_hh_l{layer}")), 4)
    bias = np.split(to_numpy(getattr(lstm, f"bias_ih_l{layer}")) + to_numpy(getattr(lstm, f"bias_hh_l{layer}")), 4)
    params = {}
    for gate, wi, wh, b in zip("ifgo", w_ih, w_hh, bias):
        params[f"i{gate}"] = {"kernel": wi.T}
        params[f"h{gate}"] = {"kernel": wh.T, "bias": b}
    return params


def flax_params(model: Any) -> dict[str, Any]:
    """``{"cells": [OptimizedLSTMCell params per layer], "dense": Dense params}`` as JAX arrays."""
    return _rnn_models.flax_params(
        model, lambda model: [flax_cell_params(model.lstm, layer) for layer in range(model.lstm.num_layers)])


class FlaxLSTMModel:
    """The model in Flax: ``OptimizedLSTMCell`` in a ``lax.scan`` over steps (all layers per step)
    and in ``nn.RNN`` (layer by layer)."""

    def __init__(self, hidden: int, out: int, layers: int):
        import flax.linen as nn

        self.hidden, self.layers = hidden, layers
        self.cell = nn.OptimizedLSTMCell(features=hidden)
        self.dense = nn.Dense(out)
        self.rnn = nn.RNN(nn.OptimizedLSTMCell(features=hidden), time_major=True)

    def _normalised_dense(self, params: Any, h: Any) -> Any:
        import jax.numpy as jnp

        y = self.dense.apply({"params": params["dense"]}, h)
        return y / jnp.linalg.norm(y, axis=-1, keepdims=True)

    def scan(self, params: Any, xs: Any) -> Any:
        import jax
        import jax.numpy as jnp

        def body(carries: list[Any], x: Any) -> tuple[list[Any], Any]:
            new = []
            for p, carry in zip(params["cells"], carries):
                carry, x = self.cell.apply({"params": p}, carry, x)
                new.append(carry)
            return new, self._normalised_dense(params, x)

        zeros = jnp.zeros((xs.shape[1], self.hidden), xs.dtype)
        _, ys = jax.lax.scan(body, [(zeros, zeros) for _ in range(self.layers)], xs)
        return ys

    def linen_rnn(self, params: Any, xs: Any) -> Any:
        h = xs
        for p in params["cells"]:
            h = self.rnn.apply({"params": {"cell": p}}, h)
        return self._normalised_dense(params, h)
