"""An earlier call does not warm a later one whose argument was bound again to a value of another form
(`_warmth.Warmth._rebound_to_another_form`, case 082's LB104:27).

An un-jitted callee's JAX operations are cached per operation and per input shape, so any earlier call of it was read
as a warm-up of a later one. jax-ml/jax#5684 times ``f(x, indices, y)`` with ``indices`` a Python list, then binds
``indices = jnp.array(indices)`` and times the same line again: the second run's operations see an array index for
the first time, so the pair is not a cold run timed on purpose before its warm repeat, and each figure is one sample
(LB104 at both). A name bound again to a value of the same form (``values = values * 2``) keeps the old reading.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

HEADER = """
import time
import jax.numpy as jnp

def norm(v, scale=1.0):
    return jnp.sum(jnp.asarray(v) ** 2) * scale

values = [1.0, 2.0, 3.0]
"""


def lb104(source: str) -> list[int]:
    return sorted(d.location.line for d in lint_source(textwrap.dedent(source), "norms.py") if d.code == "LB104")


def _timed(call: str) -> str:
    return f"t0 = time.perf_counter()\n{call}.block_until_ready()\nprint(time.perf_counter() - t0)\n"


def _lines_of(source: str, text: str) -> list[int]:
    return [i for i, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]


def test_a_list_then_the_same_name_bound_to_an_array_are_two_single_samples():
    for call in ("norm(values)", "norm(v=values)", "norm(values, scale=2.0)"):
        source = HEADER + _timed(call) + "values = jnp.asarray(values)\n" + _timed(call)
        # on c3db5ba only the second: the list run read as the warm-up of the array run
        assert lb104(source) == _lines_of(source, f"{call}.block_until_ready()"), call


def test_a_name_bound_again_to_a_value_of_the_same_form_is_still_warmed():
    source = HEADER.replace("values = [1.0, 2.0, 3.0]", "values = jnp.ones(3)") + (
        _timed("norm(values)") + "values = values * 2\n" + _timed("norm(values)")
    )
    # the first timing is a cold run timed on purpose before the warm repeat: one single sample, the second
    assert lb104(source) == _lines_of(source, "norm(values).block_until_ready()")[1:]
