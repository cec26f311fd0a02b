"""How the doctor's model reads library code it was not tuned on (issue 25, the fetched library corpus).

Each test is one general reason a finding on a real library was wrong, written as synthetic code: a
positive twin (the mistake the rule is for, still reported) beside the quiet one.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def found(source: str) -> list[tuple[str, int]]:
    """(code, line) of every finding on ``source`` read as a script."""
    return [(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")]


def test_a_container_holding_an_element_of_itself_is_read_not_reported_unreadable():
    # netket/utils/jax.py: `res = (res_val, res[1])` made the model chase `res[1]` forever (LB100)
    src = """
    import jax.numpy as jnp

    def maybe_scalar(apply_fun, pars, x):
        res = apply_fun(pars, jnp.atleast_2d(x))
        if isinstance(res, tuple):
            res_val = res[0]
            res = (res_val, res[1])
        return res[0](x)
    """
    assert found(src) == []
