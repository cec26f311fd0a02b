"""What waits for timed JAX work, as the doctor reads it.

- A host conversion inside the arguments of a JAX call (``jnp.asarray(np.asarray(rows))``,
  ``jnp.array(list(range(n)))``) runs before that call starts: it waits for nothing the call queues, so the
  call's result is still pending when the clock stops.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def codes(source: str) -> set[str]:
    return {d.code for d in lint_source(textwrap.dedent(source), "case.py")}


CONVERTED_IN_THE_ARGUMENT = """
import time
import numpy as np
import jax
import jax.numpy as jnp

rows = [[1.0, 2.0], [3.0, 4.0]]
for repeat in range(3):
    before = time.perf_counter()
    {timed}
    spent = time.perf_counter() - before
    print(spent)
"""


@pytest.mark.parametrize(
    "timed",
    [
        "batch = jnp.asarray(np.asarray(rows, dtype=np.float32))",
        "jax.device_put(np.array(rows))",
        "total = jnp.sum(jnp.asarray([float(v) for row in rows for v in row]))",
    ],
)
def test_a_host_conversion_in_the_arguments_does_not_wait_for_the_call(timed):
    assert "LB102" in codes(CONVERTED_IN_THE_ARGUMENT.format(timed=timed))


@pytest.mark.parametrize(
    "timed",
    [
        "batch = jnp.asarray(np.asarray(rows, dtype=np.float32)).block_until_ready()",
        "jax.block_until_ready(jax.device_put(np.array(rows)))",
        "total = float(jnp.sum(jnp.asarray([float(v) for row in rows for v in row])))",
        "batch = jnp.asarray(np.asarray(rows)); batch.block_until_ready()",
    ],
)
def test_the_same_conversions_waited_for_stay_quiet(timed):
    assert "LB102" not in codes(CONVERTED_IN_THE_ARGUMENT.format(timed=timed))
