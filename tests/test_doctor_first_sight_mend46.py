"""What cases 526-533 showed at first sight, mended in the shared model (mend46).

- `_intent._docstring_lines`, read by `times_compilation_on_purpose`: the docstring of a def whose body a timing
  opens is the function's own word for what that timing measures, as a comment right above the def is
  (ChemEx-JAX's ``def timed(function, *args, repeat=50)`` documented as '(first call incl. compile, mean of
  ``repeat`` later calls)', whose body times the waited first call alone, then the waited mean: case 532's false
  LB103 x5). A docstring that says nothing of compiling keeps LB103.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 532: a timing helper whose docstring says its first figure holds the compile ------------------------------------
TIMED_HELPER = '''
import {clock_module}
import jax
import jax.numpy as jnp
import numpy as np


def timed(function, *args, repeat=50):
    """{doc}"""
    start = {clock}()
    jax.block_until_ready(function(*args))
    first = {clock}() - start
    start = {clock}()
    for _ in range(repeat):
        jax.block_until_ready(function(*args))
    return first, ({clock}() - start) / repeat


def model(x):
    return jnp.tanh(x @ x.T).sum()


x0 = jnp.ones((64, 64))
forward = timed(jax.jit(model), x0, repeat=200)
{alias}
with_grad = timed(jax.jit(jax.grad(model)), x0, repeat=200)
print(forward, with_grad)
'''
_SAID = "(first call incl. compile, mean of ``repeat`` later calls) in seconds."


@pytest.mark.parametrize(
    ("clock_module", "clock", "doc", "alias"),
    [
        ("time", "time.perf_counter", _SAID, ""),  # as posted
        ("time", "time.time", "Returns (compile time, steady time).", ""),  # another clock, other words
        ("time as tm", "tm.perf_counter", _SAID, "timed_alias = timed"),  # aliased
    ],
)
def test_a_helper_whose_docstring_says_its_first_call_holds_the_compile_times_it_on_purpose(
        clock_module, clock, doc, alias):
    source = TIMED_HELPER.format(clock_module=clock_module, clock=clock, doc=doc, alias=alias)
    if alias:
        source = source.replace("with_grad = timed(", "with_grad = timed_alias(")
    found = codes(source)
    assert not lines(found, "LB103"), found


def test_a_helper_whose_docstring_says_so_in_notebook_cells():
    source = textwrap.dedent(TIMED_HELPER.format(clock_module="time", clock="time.perf_counter", doc=_SAID, alias=""))
    head, _, tail = source.partition("def model(x):")
    found = notebook_codes(head, "def model(x):" + tail)
    assert "LB103" not in {c for c, _, _ in found}, found


def test_a_helper_whose_docstring_names_no_compilation_still_times_the_compile():
    source = TIMED_HELPER.format(clock_module="time", clock="time.perf_counter",
                                 doc="Seconds per call, the mean of ``repeat`` calls.", alias="")
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "forward = timed("), line_of(source, "with_grad = timed(")}, found
