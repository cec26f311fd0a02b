"""What the doctor reads in the shape of a lesson or a size study: who owns a nested function's state, whose
settings a script's functions run under, host data built inside a timing, and a grid of sizes written out one call
at a time.

- A jitted def that declares ``nonlocal`` works on the enclosing call's own variable (a trace counter): it is made
  from that call, like any closure, and cannot simply be made once outside (LB111 stays quiet on such a def).

Each positive test has quiet twins: the same code made correct, which must stay silent.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def found(source: str) -> set[tuple[str, int]]:
    """(code, line) of every finding of a script."""
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")}


def codes(source: str) -> set[str]:
    return {code for code, _ in found(source)}


# --- a nested jitted def with nonlocal state ---------------------------------------------------------------------
COUNTER = """
import jax
import jax.numpy as jnp

def compile_counter(rows):
    seen = 0

    @jax.jit
    def double(v):
        {declaration}
        {update}
        return v * 2

    for row in rows:
        double(row)
    return seen
{calls}
"""
SHARED = {"declaration": "nonlocal seen", "update": "seen = seen + 1"}
PRIVATE = {"declaration": "count = 0", "update": "count = count + 1"}
CALLED_IN_A_LOOP = "\nfor k in range(3):\n    compile_counter(jnp.ones((k + 2, 4)))\n"


@pytest.mark.parametrize("calls", ["", CALLED_IN_A_LOOP])
def test_a_jitted_def_that_shares_a_nonlocal_is_made_from_its_call(calls):
    assert "LB111" not in codes(COUNTER.format(calls=calls, **SHARED))


@pytest.mark.parametrize("calls", ["", CALLED_IN_A_LOOP])
def test_a_jitted_def_with_only_its_own_state_is_rebuilt_for_nothing(calls):
    assert "LB111" in codes(COUNTER.format(calls=calls, **PRIVATE))
