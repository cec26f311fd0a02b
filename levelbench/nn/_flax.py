"""`GRUModule` and `LSTMModule`: levelbench's GRU and LSTM as ``flax.linen`` modules.

Their ``params`` collection is the same torch-named dict `GRU.apply` / `LSTM.apply` take, so
``{"params": from_torch(m)[0]}`` is a valid variables dict for them.
"""

from __future__ import annotations

import math
from typing import Any

import jax
import jax.numpy as jnp

try:
    import flax.linen as nn  # heavy, optional: only this wrapper needs flax
except ModuleNotFoundError as error:  # pragma: no cover - exercised only without flax
    raise ImportError("levelbench needs flax for this: pip install 'levelbench[jax]'") from error

from ._gru import GRU
from ._lstm import LSTM


def _uniform(bound: float):
    def init(key: jax.Array, shape: tuple[int, ...], dtype: Any = jnp.float32) -> jax.Array:
        return jax.random.uniform(key, shape, dtype, -bound, bound)
    return init


class _RNNModule(nn.Module):
    """The options `GRUModule` and `LSTMModule` share, torch's; each adds its own after these
    (``param_dtype``, and the LSTM's ``proj_size`` before it). ``input_size`` comes from the input."""

    hidden_size: int
    num_layers: int = 1
    bias: bool = True
    batch_first: bool = False
    bidirectional: bool = False

    def _options(self, x: jax.Array) -> dict[str, Any]:
        """The layer's options: these fields, ``input_size`` from ``x``, ``dtype`` from ``param_dtype``."""
        return dict(input_size=x.shape[-1], hidden_size=self.hidden_size, num_layers=self.num_layers,
                    bias=self.bias, batch_first=self.batch_first, bidirectional=self.bidirectional,
                    dtype=jnp.dtype(self.param_dtype).name)


class GRUModule(_RNNModule):
    """``torch.nn.GRU`` as a Flax module; ``input_size`` comes from the first call's input.

    Calling it returns ``(output, h_n)``, like torch. Parameters are named as torch names them.

    !!! Example
        ```python
        model = GRUModule(hidden_size=200, num_layers=2)
        variables = model.init(jax.random.key(0), x)
        out, h_n = jax.jit(model.apply)(variables, x)
        ```
    """

    param_dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x: jax.Array, h0: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
        gru = GRU(**self._options(x))
        return gru.apply(_params(self, gru), x, h0)


def _params(module: nn.Module, layer: GRU | LSTM) -> dict[str, jax.Array]:
    init = _uniform(1.0 / math.sqrt(layer.hidden_size))
    return {name: module.param(name, init, shape, layer.dtype) for name, shape in layer.param_shapes().items()}


class LSTMModule(_RNNModule):
    """``torch.nn.LSTM`` as a Flax module; ``input_size`` comes from the first call's input.

    Calling it returns ``(output, (h_n, c_n))``, like torch. Parameters are named as torch names them.

    !!! Example
        ```python
        model = LSTMModule(hidden_size=200, num_layers=2)
        variables = model.init(jax.random.key(0), x)
        out, (h_n, c_n) = jax.jit(model.apply)(variables, x)
        ```
    """

    proj_size: int = 0
    param_dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x: jax.Array, hx: tuple[jax.Array, jax.Array] | None = None
                 ) -> tuple[jax.Array, tuple[jax.Array, jax.Array]]:
        lstm = LSTM(proj_size=self.proj_size, **self._options(x))
        return lstm.apply(_params(self, lstm), x, hx)
