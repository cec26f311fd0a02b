"""A name bound to two functions in turn, as the doctor reads it.

Module code runs in order, so a name written the same way calls whichever function is bound to it when the line
runs (a notebook comparing frameworks often defines ``step`` for PyTorch in one cell and a jitted ``step`` in the
next):

- an alias, a container or a ``functools.partial`` of the name holds the function bound when it is made, not a
  jitted def of the same name further down;
- a helper that reads the name runs what is bound where module code calls it;
- a timing of ``step(a)`` with ``torch.cuda.synchronize()`` says that ``step`` is CUDA work only for the calls that
  run the same function: not for ``step(a)`` after a jitted ``step`` replaced it.
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


SYNCHRONIZED_THEN_AGAIN = """
import time
import torch
import jax
import jax.numpy as jnp

def step(a):
    return a @ a.T

a = torch.randn(256, 256, device="cuda")
t0 = time.perf_counter()
step(a)
torch.cuda.synchronize()
print("torch", time.perf_counter() - t0)

{rebind}
a = {second}
step(a){wait}
t0 = time.perf_counter()
step(a){wait}
print("again", time.perf_counter() - t0)
"""


def test_the_same_function_timed_again_without_synchronize_is_cuda_work():
    source = SYNCHRONIZED_THEN_AGAIN.format(rebind="", second='torch.randn(256, 256, device="cuda")', wait="")
    assert "LB116" in findings(source)


@pytest.mark.parametrize(
    "rebind", ["@jax.jit\ndef step(a):\n    return a @ a.T", "def step(a):\n    return jnp.dot(a, a.T)\nstep = jax.jit(step)"]
)
def test_the_same_text_after_a_jitted_rebinding_is_not_the_synchronized_function(rebind):
    source = SYNCHRONIZED_THEN_AGAIN.format(rebind=rebind, second="jnp.ones((256, 256))", wait=".block_until_ready()")
    assert "LB116" not in findings(source)


HELPER_READS_THE_GLOBAL = """
import time
import numpy as np
import jax
import jax.numpy as jnp

def smooth(v):
    return np.convolve(v, np.ones(5) / 5, mode="same")

def bench():
    begin = time.perf_counter()
    smooth(signal)
    print(time.perf_counter() - begin)

signal = np.ones(4096)
{before}
@jax.jit
def smooth(v):
    return jnp.convolve(v, jnp.ones(5) / 5, mode="same")
{after}
"""


def test_a_helper_called_after_the_jitted_def_runs_it():
    assert {"LB102", "LB103"} <= findings(HELPER_READS_THE_GLOBAL.format(before="", after="bench()"))


def test_a_helper_called_before_the_jitted_def_runs_the_numpy_function():
    assert not {"LB102", "LB103"} & findings(HELPER_READS_THE_GLOBAL.format(before="bench()", after=""))
