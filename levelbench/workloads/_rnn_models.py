"""What the recurrent workloads' models (`._gru_models`, `._lstm_models`) share: the torch model (a
recurrent layer, dense to ``out``, per-timestep L2 normalisation) and the Flax parameters converted
from its weights."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def torch_model(layer: str, hidden: int, features: int, out: int, layers: int, seed: int) -> Any:
    """``torch.nn.<layer>`` (``"GRU"``, ``"LSTM"``) of ``layers`` layers, a dense layer to ``out`` and
    a per-timestep L2 normalisation, seeded and in eval mode. The recurrent layer is the model's
    attribute of the layer's name in lower case (``model.gru``, ``model.lstm``)."""
    import torch
    from torch import nn

    name = layer.lower()

    class SeedModel(nn.Module):
        def __init__(self) -> None:
            super().__init__()
            setattr(self, name, getattr(nn, layer)(features, hidden, num_layers=layers))
            self.dense = nn.Linear(hidden, out)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y, _ = getattr(self, name)(x)
            y = self.dense(y)
            return y / y.norm(dim=-1, keepdim=True)  # per timestep and batch row, as the question's torch model

    SeedModel.__name__ = SeedModel.__qualname__ = f"Seed{layer}"
    torch.manual_seed(seed)
    return SeedModel().eval()


def to_numpy(t: Any) -> np.ndarray:
    """A torch tensor's values, as a NumPy array of its own."""
    return t.detach().cpu().numpy().copy()


def flax_params(model: Any, cells: Callable[[Any], list[dict[str, Any]]]) -> dict[str, Any]:
    """``{"cells": cells(model), "dense": Dense params}`` as JAX arrays: ``cells`` converts the
    model's recurrent layer, one Flax cell's parameters per layer."""
    import jax

    return jax.device_put({
        "cells": cells(model),
        "dense": {"kernel": to_numpy(model.dense.weight).T, "bias": to_numpy(model.dense.bias)},
    })
