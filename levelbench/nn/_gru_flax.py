"""`GRUModule`: levelbench's GRU as a ``flax.linen`` module.

Its ``params`` collection is the same torch-named dict `GRU.apply` takes, so
``{"params": from_torch(m)[0]}`` is a valid variables dict for it.
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


def _uniform(bound: float):
    def init(key: jax.Array, shape: tuple[int, ...], dtype: Any = jnp.float32) -> jax.Array:
        return jax.random.uniform(key, shape, dtype, -bound, bound)
    return init


class GRUModule(nn.Module):
    """``torch.nn.GRU`` as a Flax module; ``input_size`` comes from the first call's input.

    Calling it returns ``(output, h_n)``, like torch. Parameters are named as torch names them.

    !!! Example
        ```python
        model = GRUModule(hidden_size=200, num_layers=2)
        variables = model.init(jax.random.key(0), x)
        out, h_n = jax.jit(model.apply)(variables, x)
        ```
    """

    hidden_size: int
    num_layers: int = 1
    bias: bool = True
    batch_first: bool = False
    bidirectional: bool = False
    param_dtype: Any = jnp.float32

    @nn.compact
    def __call__(self, x: jax.Array, h0: jax.Array | None = None) -> tuple[jax.Array, jax.Array]:
        gru = GRU(
            input_size=x.shape[-1], hidden_size=self.hidden_size, num_layers=self.num_layers,
            bias=self.bias, batch_first=self.batch_first, bidirectional=self.bidirectional,
            dtype=jnp.dtype(self.param_dtype).name,
        )
        init = _uniform(1.0 / math.sqrt(self.hidden_size))
        params = {
            name: self.param(name, init, shape, gru.dtype)
            for name, shape in gru.param_shapes().items()
        }
        return gru.apply(params, x, h0)
