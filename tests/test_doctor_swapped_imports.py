"""One name imported as several modules, and the same function timed after each import (jax-ml/jax#193, case 013).

``import numpy as np`` ... time ``test_func()`` ... ``import jax.numpy as np`` ... time ``test_func()``: the function
reads the global ``np`` when it runs, so each timing runs the module imported last before it. The doctor's names
table is one meaning per name for the whole file and leaves such a name unknown; a call that module-level code
makes of a module-level function now reads the name as the import in effect at that call
(`Bindings.module_in_effect`).
"""

from __future__ import annotations

import pytest

from tests.test_doctor_rules import found, nb

FUNCTION = "def test_func():\n    result = np.ones((10, 10)).ravel()\n\n"
TIMINGS = {
    "timeit-magic": "%timeit test_func()\n",
    "time-magic": "%time test_func()\n",
    "clock-pair": "t0 = time.perf_counter()\ntest_func()\nprint(time.perf_counter() - t0)\n",
    "timeit-lambda": "print(timeit.timeit(lambda: test_func(), number=100))\n",
}
IMPORTS = {
    "numpy": "import numpy as np\n",
    "autograd": "import autograd.numpy as np\n",
    "jax": "import jax.numpy as np\n",
    "jax-from": "from jax import numpy as np\n",
}


def swapped(order: list[str], timing: str) -> tuple[str, list[int]]:
    """The script and the lines of the timings that run JAX."""
    source = "import time\nimport timeit\n\n" + FUNCTION
    jax_lines = []
    for module in order:
        source += IMPORTS[module]
        source += TIMINGS[timing]
        if module.startswith("jax"):
            jax_lines.append(source.count("\n") - TIMINGS[timing].count("\n") + (1 if timing == "clock-pair" else 0) + 1)
    return source, jax_lines


def lb102_lines(source: str) -> list[int]:
    return [line for code, _, line in found(source) if code == "LB102"]


@pytest.mark.parametrize("timing", sorted(TIMINGS))
@pytest.mark.parametrize(
    "order", [["numpy", "autograd", "jax"], ["jax", "numpy"], ["numpy", "jax-from"], ["jax", "numpy", "jax"]]
)
def test_the_timing_after_the_jax_import_runs_jax_and_the_others_do_not(order, timing):
    source, jax_lines = swapped(order, timing)
    assert lb102_lines(source) == jax_lines


def test_each_cell_of_a_notebook_runs_the_import_before_it():
    cells = ["import numpy as np", FUNCTION, "%timeit test_func()", "import jax.numpy as np", "%timeit test_func()"]
    assert [cell for code, cell, _ in found(nb(*cells), notebook=True) if code == "LB102"] == [5]


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("np.ones((10, 10)).ravel()", "np.ones((10, 10)).ravel().block_until_ready()"),  # it waits
        ("    result =", "    np = __import__('numpy')\n    result ="),  # its own np
        ("import jax.numpy as np\n", "try:\n    import jax.numpy as np\nexcept ImportError:\n    import numpy as np\n"),
    ],
)
def test_a_function_that_waits_binds_its_own_name_or_whose_import_is_not_known_stays_quiet(old, new):
    source, _ = swapped(["numpy", "jax"], "timeit-magic")
    assert new != old and old in source
    assert lb102_lines(source.replace(old, new)) == []
