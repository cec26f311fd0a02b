"""Weights between `torch.nn.GRU` and levelbench's JAX `GRU`: same names, shapes and values.

torch is imported only inside these functions.
"""

from __future__ import annotations

import warnings
from typing import TYPE_CHECKING, Any

import jax
import jax.numpy as jnp
import numpy as np

from ._gru import GRU, GRUParams

if TYPE_CHECKING:
    import torch


def _require_torch() -> Any:
    try:
        import torch  # heavy, optional: only the converters need it
    except ModuleNotFoundError as error:
        raise ImportError("levelbench needs torch for this: pip install 'levelbench[torch]'") from error
    return torch


def from_torch(module: torch.nn.GRU) -> tuple[GRUParams, GRU]:
    """Copy a ``torch.nn.GRU``'s weights into JAX; returns ``(params, gru)``.

    ``gru.apply(params, x, h0)`` then computes what ``module(x, h0)`` computes (in eval mode:
    dropout between layers is a training-time option and is not applied).

    !!! Example
        ```python
        params, gru = from_torch(torch.nn.GRU(6, 200, num_layers=2))
        out, h_n = jax.jit(gru.apply)(params, x)
        ```
    """
    torch = _require_torch()
    if not isinstance(module, torch.nn.GRU):
        raise TypeError(f"expected a torch.nn.GRU, got {type(module).__name__}; "
                        f"for a model that contains one, pass the GRU itself (e.g. model.gru)")
    if getattr(module, "proj_size", 0):
        raise ValueError(f"expected a GRU without proj_size, got proj_size={module.proj_size}")
    if module.dropout and module.training:
        warnings.warn(f"the torch GRU has dropout={module.dropout}, which levelbench's GRU does not "
                      f"apply; outputs match the module in eval mode", stacklevel=2)
    state = module.state_dict()
    dtypes = {t.dtype for t in state.values()}
    if len(dtypes) != 1:
        raise TypeError(f"expected all GRU parameters in one dtype, got {sorted(map(str, dtypes))}")
    dtype = str(dtypes.pop()).removeprefix("torch.")
    if dtype == "float64" and not jax.config.read("jax_enable_x64"):
        raise TypeError("the torch GRU is float64 but JAX has 64-bit types disabled: call "
                        "jax.config.update('jax_enable_x64', True) first, or convert module.float()")
    gru = GRU(
        input_size=module.input_size, hidden_size=module.hidden_size,
        num_layers=module.num_layers, bias=module.bias, batch_first=module.batch_first,
        bidirectional=module.bidirectional, dtype=dtype,
    )
    params = {name: _to_jax(tensor, dtype) for name, tensor in state.items()}
    expected = gru.param_shapes()
    if set(params) != set(expected):  # a torch version with other names would fail silently later
        raise ValueError(f"torch GRU parameter names {sorted(params)} differ from {sorted(expected)}")
    return params, gru


def to_torch(params: GRUParams, gru: GRU) -> torch.nn.GRU:
    """A new ``torch.nn.GRU`` holding ``params`` (exact copies), configured like ``gru``."""
    torch = _require_torch()
    module = torch.nn.GRU(
        gru.input_size, gru.hidden_size, num_layers=gru.num_layers, bias=gru.bias,
        batch_first=gru.batch_first, bidirectional=gru.bidirectional,
        dtype=getattr(torch, gru.dtype),
    )
    expected = gru.param_shapes()
    if set(params) != set(expected):
        raise ValueError(f"params hold {sorted(params)}, {gru} expects {sorted(expected)}")
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
