"""Fast neural-network layers for JAX with PyTorch's semantics: `GRU` (``torch.nn.GRU``) and
`LSTM` (``torch.nn.LSTM``).

``import levelbench.nn`` is light: jax is imported when a name is first used, torch only by
`from_torch` / `to_torch`, flax only by `GRUModule` / `LSTMModule`.

!!! Example
    ```python
    from levelbench.nn import from_torch
    params, gru = from_torch(torch_gru)          # torch.nn.GRU -> (dict of arrays, GRU)
    out, h_n = jax.jit(gru.apply)(params, x)     # same outputs as torch_gru(x)
    params, lstm = from_torch(torch_lstm)        # torch.nn.LSTM -> (dict of arrays, LSTM)
    out, (h_n, c_n) = jax.jit(lstm.apply)(params, x)
    ```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._gru import GRU as GRU
    from ._gru import GRUParams as GRUParams
    from ._flax import GRUModule as GRUModule
    from ._flax import LSTMModule as LSTMModule
    from ._rnn_native import build as build
    from ._lstm import LSTM as LSTM
    from ._lstm import LSTMParams as LSTMParams
    from ._torch import from_torch as from_torch
    from ._torch import to_torch as to_torch

# public name -> private module that defines it; loaded on first access (PEP 562), so that
# importing this package costs nothing until a layer is used.
_LAZY = {
    "GRU": "._gru",
    "GRUParams": "._gru",
    "GRUModule": "._flax",
    "LSTM": "._lstm",
    "LSTMParams": "._lstm",
    "LSTMModule": "._flax",
    "from_torch": "._torch",
    "to_torch": "._torch",
    "build": "._rnn_native",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    try:
        module = importlib.import_module(_LAZY[name], __name__)
    except ModuleNotFoundError as error:  # the one place levelbench.nn says how to get jax
        if error.name != "jax" and not (error.name or "").startswith("jax."):
            raise
        raise ImportError(f"levelbench needs jax for levelbench.nn.{name}: pip install 'levelbench[jax]'") from error
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
