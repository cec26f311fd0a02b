"""levelbench: measure JAX, PyTorch and NumPy fairly, compare them, and diagnose why JAX looks slow.

``import levelbench`` is light: it imports this file and the version. The public names below are
loaded on first use (PEP 562), so the CLI starts fast; jax, torch, matplotlib and IPython are
imported only where a result needs them.

The package in layers, bottom to top; a module imports only from its own layer and those below
(``tests/test_architecture.py`` checks it; docs/design/architecture.md says where new things go)::

    _values       findings, the catalogue of codes, statistics, units, settings, documents, targets
    _results      Measurement, Comparison, Diagnosis, WorkloadResult, ColdCall: frozen results
    _frameworks   one adapter per framework (JAX, PyTorch, NumPy) behind one protocol
    _measuring    the sampler, measure, compare, parity, self-checks, environment, worker processes
    workloads     cluster (Ray)     doctor     _probing (explain)     nn     _auditing (doctor --run)
    store         results that last (SQLite)
    _api          _recording     _runs     _rendering     report
    _cli          ipython     pytest_plugin
    levelbench    this facade
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._values.version import VERSION

__version__ = VERSION

# public name -> module that defines it
_EXPORTS = {
    "Finding": "._values.findings",
    "Severity": "._values.findings",
    "Measurement": "._results.measurement",
    "CompileTimes": "._results.measurement",
    "Comparison": "._results.comparison",
    "Diagnosis": "._results.diagnosis",
    "Interval": "._values.stats",
    "measure": "._api",
    "measure_expression": "._api",
    "ExpressionFailed": "._api",
    "compare": "._api",
    "Candidate": "._measuring.candidate",
    "Builder": "._measuring.candidate",
    "ComparisonError": "._measuring.parity",
    "Workload": ".workloads",
    "Param": ".workloads",
    "lint_paths": ".doctor",
    "lint_source": ".doctor",
    "audit_script": "._auditing",
    "record_audit": "._recording",
    "ScriptAudit": "._results.script_audit",
    "TimedInterval": "._results.script_audit",
    "explain": "._probing",
    "explain_target": "._probing",
    "ExplainFailed": "._probing",
    "Call": "._probing",
    "QUICK_PROBES": "._probing",
    "open_store": ".store",
    "run_workloads": "._runs",
    "RunOutcome": "._runs",
    "choose_nodes": "._runs",
}
__all__ = sorted(_EXPORTS) + ["load_ipython_extension"]

if TYPE_CHECKING:  # for type checkers and IDEs; at run time names load lazily
    from ._api import compare as compare
    from ._api import ExpressionFailed as ExpressionFailed
    from ._api import measure as measure
    from ._api import measure_expression as measure_expression
    from ._measuring.candidate import Builder as Builder
    from ._measuring.candidate import Candidate as Candidate
    from ._measuring.parity import ComparisonError as ComparisonError
    from ._probing import QUICK_PROBES as QUICK_PROBES
    from ._probing import Call as Call
    from ._results.diagnosis import Diagnosis as Diagnosis
    from ._probing import explain as explain
    from ._probing import explain_target as explain_target
    from ._probing import ExplainFailed as ExplainFailed
    from ._results.comparison import Comparison as Comparison
    from ._results.measurement import CompileTimes as CompileTimes
    from ._results.measurement import Measurement as Measurement
    from ._values.findings import Finding as Finding
    from ._values.findings import Severity as Severity
    from ._values.stats import Interval as Interval
    from .doctor import lint_paths as lint_paths
    from .doctor import lint_source as lint_source
    from ._auditing import audit_script as audit_script
    from ._recording import record_audit as record_audit
    from ._results.script_audit import ScriptAudit as ScriptAudit
    from ._results.script_audit import TimedInterval as TimedInterval
    from ._runs import RunOutcome as RunOutcome
    from ._runs import choose_nodes as choose_nodes
    from ._runs import run_workloads as run_workloads
    from .store import open_store as open_store
    from .workloads import Param as Param
    from .workloads import Workload as Workload


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'levelbench' has no attribute {name!r}")
    importlib.import_module("._rendering", __name__)  # results print as tables (registers the renderers)
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later look-ups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


def load_ipython_extension(ip: Any) -> None:
    """``%load_ext levelbench``: register %lbtime, %lbtimeit, %%lbtimeit, %lbcompare and %lbdoctor."""
    # lazy: `import levelbench` stays light: IPython loads with %load_ext
    from .ipython import load_ipython_extension as _load

    _load(ip)
