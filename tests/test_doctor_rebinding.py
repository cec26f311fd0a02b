"""A name bound to two functions in turn, as the doctor reads it.

Module code runs in order, so a name written the same way calls whichever function is bound to it when the line
runs (a notebook comparing frameworks often defines ``step`` for PyTorch in one cell and a jitted ``step`` in the
next):

- an alias, a container or a ``functools.partial`` of the name holds the function bound when it is made, not a
  jitted def of the same name further down.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[str]:
    return {d.code for d in lint_source(textwrap.dedent(source), "case.py")}


HELD_BEFORE_OR_AFTER = """
import functools
import time
import numpy as np
import jax
import jax.numpy as jnp

def smooth(v):
    return np.convolve(v, np.ones(5) / 5, mode="same")

{before}

@jax.jit
def smooth(v):
    return jnp.convolve(v, jnp.ones(5) / 5, mode="same")

{after}
signal = np.ones(4096)
for trial in range(3):
    begin = time.perf_counter()
    {call}(signal)
    print(time.perf_counter() - begin)
"""

HOLDERS = [
    ("runner = smooth", "runner"),
    ('kernels = {"smooth": smooth}', 'kernels["smooth"]'),
    ("runner = functools.partial(smooth)", "runner"),
]


@pytest.mark.parametrize(("binding", "call"), HOLDERS)
def test_a_holder_made_after_the_jitted_def_runs_it(binding, call):
    codes = findings(HELD_BEFORE_OR_AFTER.format(before="", after=binding, call=call))
    assert {"LB102", "LB103"} <= codes


@pytest.mark.parametrize(("binding", "call"), HOLDERS)
def test_a_holder_made_before_the_jitted_def_runs_the_numpy_function(binding, call):
    codes = findings(HELD_BEFORE_OR_AFTER.format(before=binding, after="", call=call))
    assert not {"LB102", "LB103"} & codes
