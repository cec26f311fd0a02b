"""levelbench: measure JAX, PyTorch and NumPy fairly, compare them, and diagnose why JAX looks slow.

``import levelbench`` is light: it imports nothing but this file. The public names below are
loaded on first use (PEP 562), so the CLI starts fast; jax, torch, matplotlib and IPython are
imported only where a result needs them.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

# public name -> module that defines it
_EXPORTS = {
    "Finding": "._findings",
    "Severity": "._findings",
    "Measurement": "._measurement",
    "Interval": "._stats",
    "measure": "._timing",
    "CompileTimes": ".adapters",
    "Candidate": "._candidate",
    "Builder": "._candidate",
    "Comparison": "._comparison",
    "compare": "._compare",
    "ComparisonError": "._parity",
    "Workload": ".workloads",
    "Param": ".workloads",
    "lint_paths": ".doctor",
    "lint_source": ".doctor",
    "explain": "._explain",
    "Diagnosis": "._explain",
    "Call": "._explain",
    "QUICK_PROBES": "._explain",
    "open_store": ".store",
}
__all__ = sorted(_EXPORTS) + ["load_ipython_extension"]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from ._candidate import Builder as Builder
    from ._candidate import Candidate as Candidate
    from ._comparison import Comparison as Comparison
    from ._compare import compare as compare
    from ._findings import Finding as Finding
    from ._findings import Severity as Severity
    from ._measurement import Measurement as Measurement
    from ._parity import ComparisonError as ComparisonError
    from ._stats import Interval as Interval
    from ._timing import measure as measure
    from .adapters import CompileTimes as CompileTimes
    from .doctor import lint_paths as lint_paths
    from .doctor import lint_source as lint_source
    from ._explain import QUICK_PROBES as QUICK_PROBES
    from ._explain import Call as Call
    from ._explain import Diagnosis as Diagnosis
    from ._explain import explain as explain
    from .store import open_store as open_store
    from .workloads import Param as Param
    from .workloads import Workload as Workload


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'levelbench' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load_ipython_extension(ip: Any) -> None:
    """``%load_ext levelbench``: register %lbtime, %lbtimeit, %%lbtimeit, %lbcompare and %lbdoctor."""
    from .ipython import load_ipython_extension as _load

    _load(ip)
