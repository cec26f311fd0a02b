"""A def decorated with a JAX transform that is no jit runs its program eagerly when called (case 298).

`levelbench.doctor._iteration.runs_many_operations`: ``@eqx.filter_value_and_grad def loss(...)`` called in a timed
training loop runs the forward and backward passes one operation at a time, as ``jax.grad(loss)(x)`` does: LB114 at
the call, however the transform is spelled. A jit over it makes it one program.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "train.py")}


TRAIN = """\
import time
from functools import partial
import jax
import jax.numpy as jnp
import equinox as eqx

def main(steps=100):
    w = jnp.ones(8)
    xs = jnp.ones((32, 8))

    {decorators}
    def loss(w, xs):
        return jnp.mean(jnp.tanh(xs @ w) ** 2)

    for step in range(steps):
        start = time.perf_counter()
        value, grads = loss(w, xs)
        jax.block_until_ready(grads)
        print(step, time.perf_counter() - start)
        w = w - 0.1 * grads

if __name__ == "__main__":
    main()
"""


@pytest.mark.parametrize(
    "decorators",
    ["@eqx.filter_value_and_grad", "@jax.value_and_grad",
     "@partial(jax.value_and_grad, argnums=0)"],
)
def test_a_def_decorated_with_an_unjitted_transform_is_timed_op_by_op(decorators):
    assert ("LB114", 17) in findings(TRAIN.format(decorators=decorators))


@pytest.mark.parametrize("decorators", ["@jax.jit\n    @jax.value_and_grad", "@eqx.filter_jit\n    @eqx.filter_value_and_grad"])
def test_the_same_def_under_jit_is_one_program(decorators):
    found = findings(TRAIN.format(decorators=decorators))
    assert not any(code == "LB114" for code, _ in found)

