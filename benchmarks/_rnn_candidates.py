"""The torch and Flax candidates benchmarks/gru.py and benchmarks/lstm.py share: the same timed work
for either recurrent layer, so the two benchmarks measure their models the same way.

Forward runs torch in ``inference_mode()`` on an ``eval()`` module; forward+backward takes the
gradient of ``mean(out**2)`` with respect to the parameters. Flax stacks ``layers`` of
``flax.linen.RNN(cell)`` with its own weights, jitted.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np


def inputs(torch_layer: str, seq: int, batch: int, features: int, hidden: int, layers: int) -> tuple[Any, np.ndarray]:
    """``torch.nn.<torch_layer>`` seeded, and a (seq, batch, features) float32 input."""
    import torch

    torch.manual_seed(0)
    module = getattr(torch.nn, torch_layer)(features, hidden, num_layers=layers)
    x = np.random.default_rng(0).standard_normal((seq, batch, features)).astype(np.float32)
    return module, x


def torch_candidate(module: Any, x: np.ndarray, mode: str) -> Any:
    import torch

    import levelbench

    xt = torch.from_numpy(x)
    if mode == "forward":
        module.eval()

        def forward(x):
            with torch.inference_mode():
                return module(x)[0]

        return levelbench.Candidate(forward, (xt,), group="torch weights")

    def forward_backward(x):
        module.zero_grad(set_to_none=True)
        out, _ = module(x)
        loss = (out ** 2).mean()
        loss.backward()
        return loss.detach()

    return levelbench.Candidate(forward_backward, (xt,), group="torch weights")


def flax_candidate(cell: Callable[[], Any], x: np.ndarray, layers: int, mode: str) -> Any:
    """``layers`` of ``flax.linen.RNN(cell())`` on ``x``, jitted."""
    import flax.linen as nn
    import jax
    import jax.numpy as jnp

    import levelbench

    class Stack(nn.Module):
        @nn.compact
        def __call__(self, x):
            for _ in range(layers):
                x = nn.RNN(cell())(x)
            return x

    seq, batch, features = x.shape
    xj = jnp.asarray(x)
    xb = jnp.swapaxes(xj, 0, 1)  # flax.linen.RNN is batch-major
    model = Stack()
    params = model.init(jax.random.key(0), jnp.zeros((batch, seq, features)))
    if mode == "forward":
        return levelbench.Candidate(jax.jit(model.apply), (params, xb), inputs=(xj,), group="flax weights")
    step = jax.jit(jax.value_and_grad(lambda p, x: (model.apply(p, x) ** 2).mean()))
    return levelbench.Candidate(step, (params, xb), inputs=(xj,), group="flax weights",
                                checked_output=lambda out: out[0])
