"""The seed GRU question's model (2-layer GRU, dense to 4, per-timestep L2 normalisation) in
PyTorch, Flax and NumPy, with one set of weights: torch's, converted.

Conversion to ``flax.linen.GRUCell``: its ``ir``/``iz``/``in`` Dense layers hold ``W_i{r,z,n}^T``
with biases ``b_ir + b_hr`` and ``b_iz + b_hz`` (torch's two biases add up in those gates) and
``b_in``; ``hr``/``hz`` have no bias; ``hn`` holds ``W_hn^T`` and ``b_hn``, which Flax, like torch,
keeps inside the reset product ``r * (W_hn h + b_hn)``.
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from . import _rnn_models
from ._rnn_models import to_numpy


torch_model = functools.partial(_rnn_models.torch_model, "GRU")
"""``torch_model(hidden, features, out, layers, seed)``: the seed question's torch model (``model.gru``)."""


def torch_gru_weights(model: Any) -> list[dict[str, np.ndarray]]:
    """Per layer: w_ih (3H, in), w_hh (3H, H), b_ih (3H), b_hh (3H), gate order r | z | n."""
    g = model.gru
    return [
        {k: to_numpy(getattr(g, f"{k.replace('w_', 'weight_').replace('b_', 'bias_')}_l{layer}"))
         for k in ("w_ih", "w_hh", "b_ih", "b_hh")}
        for layer in range(g.num_layers)
    ]


def flax_cell_params(w: dict[str, np.ndarray]) -> dict[str, Any]:
    w_ir, w_iz, w_in = np.split(w["w_ih"], 3)
    w_hr, w_hz, w_hn = np.split(w["w_hh"], 3)
    b_ir, b_iz, b_in = np.split(w["b_ih"], 3)
    b_hr, b_hz, b_hn = np.split(w["b_hh"], 3)
    return {
        "ir": {"kernel": w_ir.T, "bias": b_ir + b_hr},
        "iz": {"kernel": w_iz.T, "bias": b_iz + b_hz},
        "in": {"kernel": w_in.T, "bias": b_in},
        "hr": {"kernel": w_hr.T},
        "hz": {"kernel": w_hz.T},
        "hn": {"kernel": w_hn.T, "bias": b_hn},
    }


def flax_params(model: Any) -> dict[str, Any]:
    """``{"cells": [GRUCell params per layer], "dense": Dense params}`` as JAX arrays."""
    return _rnn_models.flax_params(model, lambda model: [flax_cell_params(w) for w in torch_gru_weights(model)])


def _normalise(y: Any, xp: Any) -> Any:
    return y / xp.linalg.norm(y, axis=-1, keepdims=True)


class FlaxSeedModel:
    """The question's JAX model, in the forms the question and its answers use."""

    def __init__(self, hidden: int, out: int, layers: int):
        import flax.linen as nn

        self.hidden, self.layers = hidden, layers
        self.cell = nn.GRUCell(features=hidden)
        self.dense = nn.Dense(out)
        self.rnn = nn.RNN(nn.GRUCell(features=hidden), time_major=True)

    def step(self, params: Any, carries: list[Any], x: Any) -> tuple[list[Any], Any]:
        import jax.numpy as jnp

        new = []
        for p, h in zip(params["cells"], carries):
            h, x = self.cell.apply({"params": p}, h, x)
            new.append(h)
        y = self.dense.apply({"params": params["dense"]}, x)
        return new, _normalise(y, jnp)

    def zeros(self, batch: int, dtype: Any) -> list[Any]:
        import jax.numpy as jnp

        return [jnp.zeros((batch, self.hidden), dtype) for _ in range(self.layers)]

    def python_loop(self, params: Any, xs: Any) -> Any:
        """The question's loop (fixed to return its outputs): one Flax apply per layer per step."""
        import jax.numpy as jnp

        carries = self.zeros(xs.shape[1], xs.dtype)
        ys = []
        for x in xs:
            carries, y = self.step(params, carries, x)
            ys.append(y)
        return jnp.stack(ys)

    def scan(self, params: Any, xs: Any) -> Any:
        import jax

        def body(carries: list[Any], x: Any) -> tuple[list[Any], Any]:
            return self.step(params, carries, x)

        _, ys = jax.lax.scan(body, self.zeros(xs.shape[1], xs.dtype), xs)
        return ys

    def linen_rnn(self, params: Any, xs: Any) -> Any:
        import jax.numpy as jnp

        h = xs
        for p in params["cells"]:
            h = self.rnn.apply({"params": {"cell": p}}, h)
        return _normalise(self.dense.apply({"params": params["dense"]}, h), jnp)


def numpy_forward(weights: list[dict[str, np.ndarray]], dense: tuple[np.ndarray, np.ndarray], xs: np.ndarray) -> np.ndarray:
    """torch.nn.GRU's equations, step by step, in NumPy: the reference that depends on no framework."""

    def sigmoid(v: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-v))

    h_in = xs
    for w in weights:
        gi_all = h_in @ w["w_ih"].T + w["b_ih"]  # input projection for all steps at once
        h = np.zeros((xs.shape[1], w["w_hh"].shape[1]), xs.dtype)
        outs = []
        for gi in gi_all:
            gh = h @ w["w_hh"].T + w["b_hh"]
            i_r, i_z, i_n = np.split(gi, 3, axis=-1)
            h_r, h_z, h_n = np.split(gh, 3, axis=-1)
            r, z = sigmoid(i_r + h_r), sigmoid(i_z + h_z)
            n = np.tanh(i_n + r * h_n)
            h = (1 - z) * n + z * h
            outs.append(h)
        h_in = np.stack(outs)
    y = h_in @ dense[0].T + dense[1]
    return _normalise(y, np)
