r"""``levelbench doctor``: find benchmarking and JAX-performance mistakes in scripts and notebooks, statically.

Nothing is run or imported from the code under test: files are parsed, and each rule (``RULES``,
codes ``LB1xx``) looks for one mistake that makes JAX look slower than it is, or a benchmark
report numbers it did not measure.

!!! Example
    >>> from levelbench.doctor import lint_source
    >>> [(str(d.location), d.code) for d in lint_source("import numpy as np\nx = np.random.normal((3, 3))\n", "b.py")]
    [('b.py:2:22', 'LB109')]
"""

from .._values.catalogue import RULES as RULES
from .._values.catalogue import Rule as Rule
from ._config import ConfigError as ConfigError
from ._diagnostic import Diagnostic as Diagnostic
from ._diagnostic import DoctorReport as DoctorReport
from ._diagnostic import Location as Location
from ._schedule import lint_paths as lint_paths
from ._schedule import lint_source as lint_source
from ._engine import selected_codes as selected_codes
from ._fixer import FixReport as FixReport
from ._fixer import FixResult as FixResult
from ._fixer import Unfixed as Unfixed
from ._fixer import fix_paths as fix_paths
from ._fixer import fix_source as fix_source
from ._writing import FixPlan as FixPlan
from ._writing import Shown as Shown
from ._writing import Written as Written
from ._writing import fix_failed as fix_failed
from ._writing import plan_fixes as plan_fixes
from ._writing import write_fixes as write_fixes
from ._config import ConfigChoice as ConfigChoice
from ._config import Options as Options
from ._config import Settings as Settings
from ._config import describe as describe
from ._schedule import HEAD_LINES as HEAD_LINES
from ._schedule import PART_LINES as PART_LINES
from ._fixer import applicable as applicable
from ._fixer import fixing_codes as fixing_codes
from ._load import DEFAULT_MAX_BYTES as DEFAULT_MAX_BYTES

__all__ = [
    "applicable", "ConfigChoice", "ConfigError", "DEFAULT_MAX_BYTES", "describe", "Diagnostic",
    "DoctorReport", "fix_failed", "fix_paths", "fix_source", "fixing_codes", "FixPlan", "FixReport", "FixResult",
    "HEAD_LINES", "lint_paths", "lint_source", "Location", "Options", "PART_LINES", "plan_fixes", "Rule", "RULES",
    "selected_codes", "Settings", "Shown", "write_fixes", "Written",
]
