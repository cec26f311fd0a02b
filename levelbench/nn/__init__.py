"""Fast neural-network layers for JAX with PyTorch's semantics: `GRU` (``torch.nn.GRU``).

``import levelbench.nn`` is light: jax is imported when a name is first used, torch only by
`from_torch` / `to_torch`, flax only by `GRUModule`.

!!! Example
    ```python
    from levelbench.nn import from_torch
    params, gru = from_torch(torch_gru)          # torch.nn.GRU -> (dict of arrays, GRU)
    out, h_n = jax.jit(gru.apply)(params, x)     # same outputs as torch_gru(x)
    ```
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from ._gru import GRU as GRU
    from ._gru import GRUParams as GRUParams
    from ._gru_flax import GRUModule as GRUModule
    from ._gru_torch import from_torch as from_torch
    from ._gru_native import build as build
    from ._gru_torch import to_torch as to_torch

# public name -> private module that defines it; loaded on first access (PEP 562), so that
# importing this package costs nothing until a layer is used.
_LAZY = {
    "GRU": "._gru",
    "GRUParams": "._gru",
    "GRUModule": "._gru_flax",
    "from_torch": "._gru_torch",
    "to_torch": "._gru_torch",
    "build": "._gru_native",
}

__all__ = sorted(_LAZY)


def __getattr__(name: str) -> Any:
    if name not in _LAZY:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(_LAZY[name], __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
