"""What cases 460-473 showed at first sight, mended in the shared model (mend41).

- `_intent.repeated_right_after`, read by LB104: a clock pair inside a loop over the things compared (``for f_ in
  [fn, jax.jit(fn), ...]:``) takes one sample per thing; when the next timing right after it runs the same call
  again in a loop of its own, the pair is the first run timed cold on purpose beside its warm figure, as for a pair
  taken once (numbax's mini-benchmark, case 460's false LB104).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 460: a first run timed cold per compared function, then its warm loop ----------------------------------------
COMPARED = """
import jax
import numpy as np
{imports}

def fn(x):
    return jax.numpy.sin(x) * 2 + 1

{body}
"""
_LOOP = """
for (f_, name) in [(fn, 'jax'), (jax.jit(fn), 'jax-jit')]:
    t0 = {clock}
    f_({arg})
    t1 = {clock}
    for _ in range(100):
        f_({arg})
    t2 = {clock}
    print(name, t2 - t1, t1 - t0)
"""
_HELPER = """
def compare(functions):
    for f_ in functions:
        t0 = {clock}
        jax.block_until_ready(f_({arg}))
        t1 = {clock}
        for _ in range(100):
            jax.block_until_ready(f_({arg}))
        t2 = {clock}
        print(t2 - t1, t1 - t0)

compare([fn, jax.jit(fn)])
"""


@pytest.mark.parametrize(
    ("imports", "body", "clock"),
    [
        ("import time", _LOOP, "time.perf_counter()"),  # as posted
        ("from time import perf_counter as now", _LOOP, "now()"),  # aliased
        ("import timeit", _LOOP, "timeit.default_timer()"),  # another clock
        ("import time", _HELPER, "time.perf_counter()"),  # in a helper, waited
    ],
)
def test_a_first_run_per_compared_function_then_its_warm_loop_is_no_single_sample(imports, body, clock):
    source = COMPARED.format(imports=imports, body=body.format(clock=clock, arg="np.ones(3)"))
    found = codes(source)
    assert "LB104" not in {c for c, _ in found}, found


def test_a_first_run_per_compared_function_then_its_warm_loop_in_notebook_cells_is_no_single_sample():
    found = notebook_codes(
        "import jax\nimport numpy as np\nimport time\ndef fn(x):\n    return jax.numpy.sin(x) * 2 + 1",
        _LOOP.format(clock="time.perf_counter()", arg="np.ones(3)"),
    )
    assert "LB104" not in {c for c, _, _ in found}, found


def test_a_pair_per_compared_function_with_no_warm_loop_after_it_is_still_one_sample():
    body = """
for f_ in [fn, jax.jit(fn)]:
    t0 = time.perf_counter()
    jax.block_until_ready(f_(np.ones(3)))
    print(time.perf_counter() - t0)
"""
    source = COMPARED.format(imports="import time", body=body)
    assert ("LB104", line_of(source, "jax.block_until_ready(f_(")) in codes(source)
