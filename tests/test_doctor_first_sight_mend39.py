"""What cases 428-459 showed at first sight, mended in the shared model (mend39).

- `Facts.engine_of` and `Facts.built_with_engine` (`_facts`), read by `Context.does_framework_work`: an engine keyword
  (``backend=``, ``sampler=``, ``engine=``) picks the framework a library computes with whether its string is written
  in the call or chosen once in the file and handed by name (``backend = 'numpy'``, then ``backend=backend``), and an
  object built with one computes in that framework: its method calls are framework work (TensorNetwork's
  ``mps = tn.mps.FiniteMPS(tensors, backend=backend)`` then ``mps.position(N - 1)`` timed with ``time.time()``,
  case 456).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 456: an object built by a library with its backend chosen once in the file ----------------------------------
SWEEPS = """
{imports}
import numpy as np

{setting}
tensors = [np.random.rand(1, 2, 8)] + [np.random.rand(8, 2, 8) for _ in range(6)] + [np.random.rand(8, 2, 1)]
{build}
times = []
for n in range(10):
    t1 = {clock}
    {method}
    times.append({clock} - t1)
print(np.average(times))
"""
_TN = "import tensornetwork as tn\nimport time"


@pytest.mark.parametrize(
    ("imports", "setting", "build", "method", "clock"),
    [
        (_TN, "backend = 'numpy'  # 'jax', 'tensorflow', 'pytorch'",
         "mps = tn.mps.FiniteMPS(tensors, center_position=0, backend=backend)", "mps.position(7)", "time.time()"),
        (_TN, "backend = 'jax'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)", "mps.position(7)", "time.time()"),
        (_TN, "", "mps = tn.mps.FiniteMPS(tensors, backend='jax')", "mps.position(7)", "time.time()"),  # written in
        ("from tensornetwork.matrixproductstates.finite_mps import FiniteMPS\nfrom time import time", "BACKEND = 'pytorch'",
         "chain = FiniteMPS(tensors, backend=BACKEND)", "chain.canonicalize()", "time()"),  # imported class, alias
        ("import tensornetwork as tn\nimport time as tm", "kind = 'jax'",
         "def make(ts):\n    return tn.FiniteMPS(ts, backend=kind)\nmps = make(tensors)", "mps.position(0)",
         "tm.time()"),  # built in a helper
    ],
)
def test_a_method_of_an_object_built_with_a_framework_backend_is_timed_on_the_wall_clock(
    imports, setting, build, method, clock
):
    source = SWEEPS.format(imports=imports, setting=setting, build=build, method=method, clock=clock)
    found = codes(source)
    assert ("LB105", line_of(source, "    t1 = ")) in found, found


def test_a_backend_chosen_once_in_notebook_cells_is_found():
    found = notebook_codes(
        "import tensornetwork as tn\nimport numpy as np\nimport time\nbackend = 'numpy'",
        "mps = tn.mps.FiniteMPS([np.ones((1, 2, 1))], backend=backend)",
        "t1 = time.time()\nmps.position(0)\nprint(time.time() - t1)",
    )
    assert ("LB105", 3, 1) in found, found


@pytest.mark.parametrize(
    ("setting", "build"),
    [
        ("backend = 'tensorflow'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)"),  # a framework not read here
        ("backend = 'numpy' if fast else 'jax'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)"),  # not one value
        ("backend = 'numpy'", "mps = tn.mps.FiniteMPS(tensors, label=backend)"),  # a keyword that picks no engine
        ("backend = 'numpy'", "mps = tn.mps.FiniteMPS(tensors)"),  # the setting handed to nothing
    ],
)
def test_an_object_whose_backend_is_not_read_as_a_framework_stays_unknown(setting, build):
    source = SWEEPS.format(imports=_TN, setting=setting, build=build, method="mps.position(7)", clock="time.time()")
    assert "LB105" not in {c for c, _ in codes(source)}


def test_a_backend_handed_by_a_name_bound_to_two_engines_is_unknown():
    source = SWEEPS.format(imports=_TN, setting="backend = 'numpy'\nbackend = 'pymc'",
                           build="mps = tn.mps.FiniteMPS(tensors, backend=backend)", method="mps.position(7)",
                           clock="time.time()")
    assert "LB105" not in {c for c, _ in codes(source)}
