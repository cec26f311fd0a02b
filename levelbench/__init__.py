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
    "Finding": "._values.findings",
    "Severity": "._values.findings",
    "Measurement": "._results.measurement",
    "Interval": "._values.stats",
    "measure": "._measuring.sampler",
    "CompileTimes": "._frameworks",
    "Candidate": "._measuring.candidate",
    "Builder": "._measuring.candidate",
    "Comparison": "._results.comparison",
    "compare": "._measuring.compare",
    "ComparisonError": "._measuring.parity",
    "Workload": ".workloads",
    "Param": ".workloads",
    "lint_paths": ".doctor",
    "lint_source": ".doctor",
    "explain": "._probing",
    "Diagnosis": "._probing",
    "Call": "._probing",
    "QUICK_PROBES": "._probing",
    "open_store": ".store",
}
__all__ = sorted(_EXPORTS) + ["load_ipython_extension"]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from ._measuring.candidate import Builder
    from ._measuring.candidate import Candidate
    from ._results.comparison import Comparison
    from ._measuring.compare import compare
    from ._values.findings import Finding
    from ._values.findings import Severity
    from ._results.measurement import Measurement
    from ._measuring.parity import ComparisonError
    from ._values.stats import Interval
    from ._measuring.sampler import measure
    from ._frameworks import CompileTimes
    from .doctor import lint_paths as lint_paths
    from .doctor import lint_source as lint_source
    from ._probing import QUICK_PROBES
    from ._probing import Call
    from ._probing import Diagnosis
    from ._probing import explain
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
