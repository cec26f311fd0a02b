"""levelbench: measure JAX, PyTorch and NumPy fairly, compare them, and diagnose why JAX looks slow.

``import levelbench`` is light: jax, torch, matplotlib and IPython are imported only where used.
"""

from ._findings import Finding as Finding
from ._findings import Severity as Severity

__version__ = "0.1.0"
from ._measurement import Measurement as Measurement
from ._stats import Interval as Interval
from ._timing import measure as measure
from .adapters import CompileTimes as CompileTimes
from ._compare import Candidate as Candidate
from ._compare import Comparison as Comparison
from ._compare import compare as compare
from ._parity import ComparisonError as ComparisonError


def load_ipython_extension(ip):  # noqa: ANN001, ANN201 - IPython's hook: `%load_ext levelbench`
    """Register the %lbtime, %lbtimeit, %%lbtimeit, %lbcompare and %lbdoctor magics."""
    from .ipython import load_ipython_extension as _load

    _load(ip)
