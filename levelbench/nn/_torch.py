"""Weights between torch's ``nn.GRU`` / ``nn.LSTM`` and levelbench's JAX `GRU` / `LSTM`: same names,
shapes and values.

torch is imported only inside these functions.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from ._gru import GRU, GRUParams
from ._lstm import LSTM

if TYPE_CHECKING:
    import torch


def _require_torch() -> Any:
    try:
        import torch  # heavy, optional: only the converters need it
    except ModuleNotFoundError as error:
        raise ImportError("levelbench needs torch for this: pip install 'levelbench[torch]'") from error
    return torch


def from_torch(module: torch.nn.GRU | torch.nn.LSTM) -> tuple[GRUParams, GRU | LSTM]:
    """Copy a ``torch.nn.GRU``'s or ``torch.nn.LSTM``'s weights into JAX; returns ``(params, layer)``.

    ``layer.apply(params, x, ...)`` then computes what ``module(x, ...)`` computes (in eval mode:
    dropout between layers is a training-time option and is not applied).

    !!! Example
        ```python
        params, gru = from_torch(torch.nn.GRU(6, 200, num_layers=2))
        out, h_n = jax.jit(gru.apply)(params, x)
        params, lstm = from_torch(torch.nn.LSTM(6, 200, num_layers=2))
        out, (h_n, c_n) = jax.jit(lstm.apply)(params, x)
        ```
    """
    torch = _require_torch()
    if not isinstance(module, (torch.nn.GRU, torch.nn.LSTM)):
        raise TypeError(f"expected a torch.nn.GRU or torch.nn.LSTM, got {type(module).__name__}; "
                        f"for a model that contains one, pass the layer itself (e.g. model.gru)")
    kind = "LSTM" if isinstance(module, torch.nn.LSTM) else "GRU"
    if kind == "GRU" and getattr(module, "proj_size", 0):
        raise ValueError(f"expected a GRU without proj_size, got proj_size={module.proj_size}")
    if module.dropout and module.training:
        warnings.warn(f"the torch {kind} has dropout={module.dropout}, which levelbench's {kind} does not "
                      f"apply; outputs match the module in eval mode", stacklevel=2)
    state = module.state_dict()
    dtypes = {t.dtype for t in state.values()}
    if len(dtypes) != 1:
        raise TypeError(f"expected all {kind} parameters in one dtype, got {sorted(map(str, dtypes))}")
    dtype = str(dtypes.pop()).removeprefix("torch.")
    if dtype == "float64" and not jax.config.read("jax_enable_x64"):
        raise TypeError(f"the torch {kind} is float64 but JAX has 64-bit types disabled: call "
                        "jax.config.update('jax_enable_x64', True) first, or convert module.float()")
    options = dict(input_size=module.input_size, hidden_size=module.hidden_size,
                   num_layers=module.num_layers, bias=module.bias, batch_first=module.batch_first,
                   bidirectional=module.bidirectional, dtype=dtype)
    layer = LSTM(proj_size=module.proj_size, **options) if kind == "LSTM" else GRU(**options)
    params = {name: _to_jax(tensor, dtype) for name, tensor in state.items()}
    expected = layer.param_shapes()
    if set(params) != set(expected):  # a torch version with other names would fail silently later
        raise ValueError(f"torch {kind} parameter names {sorted(params)} differ from {sorted(expected)}")
    return params, layer


def to_torch(params: GRUParams, layer: GRU | LSTM) -> torch.nn.GRU | torch.nn.LSTM:
    """A new ``torch.nn.GRU`` or ``torch.nn.LSTM`` holding ``params`` (exact copies), configured like
    ``layer``."""
    torch = _require_torch()
    if not isinstance(layer, (GRU, LSTM)):
        raise TypeError(f"expected a levelbench.nn GRU or LSTM, got {type(layer).__name__}")
    options = dict(num_layers=layer.num_layers, bias=layer.bias, batch_first=layer.batch_first,
                   bidirectional=layer.bidirectional, dtype=getattr(torch, layer.dtype))
    if isinstance(layer, LSTM):
        module = torch.nn.LSTM(layer.input_size, layer.hidden_size, proj_size=layer.proj_size, **options)
    else:
        module = torch.nn.GRU(layer.input_size, layer.hidden_size, **options)
    expected = layer.param_shapes()
    if set(params) != set(expected):
        raise ValueError(f"params hold {sorted(params)}, {layer} expects {sorted(expected)}")
    state = {}
    for name, value in params.items():
        array = np.asarray(jax.device_get(value))
        if array.dtype.name == "bfloat16":  # numpy has no bfloat16 torch.from_numpy understands
            state[name] = torch.from_numpy(array.astype(np.float32)).to(torch.bfloat16)
        else:
            state[name] = torch.from_numpy(array.copy())
    module.load_state_dict(state)
    return module


def _to_jax(tensor: Any, dtype: str) -> jax.Array:
    data = tensor.detach().cpu()
    if dtype == "bfloat16":  # exact: every bfloat16 is a float32
        return jnp.asarray(data.float().numpy(), dtype=jnp.bfloat16)
    return jnp.asarray(data.numpy())
