"""What waits for timed JAX work, as the doctor reads it.

- A host conversion inside the arguments of a JAX call (``jnp.asarray(np.asarray(rows))``,
  ``jnp.array(list(range(n)))``) runs before that call starts: it waits for nothing the call queues, so the
  call's result is still pending when the clock stops.
- A result that later timed JAX work reads is that work's input, whatever the assignment's target (``x = ...``,
  ``key, step_key = jax.random.split(key)``): the later work is the one left pending, and LB102 points at it.
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


UNPACKED_INPUT = """
import time
import jax

step = jax.jit(lambda params, key: jax.random.normal(key, (128, 128)) @ params)
params = jax.numpy.ones((128, 128))
key = jax.random.PRNGKey(0)
start = time.perf_counter()
for _ in range(50):
    {split}
    loss = step(params, {read})
print((time.perf_counter() - start) / 50)
"""


@pytest.mark.parametrize(
    ("split", "read"),
    [
        ("key, step_key = jax.random.split(key)", "step_key"),
        ("(key, step_key) = jax.random.split(key)", "step_key"),
        ("[key, step_key] = jax.random.split(key)", "step_key"),
        ("key, *rest = jax.random.split(key, 3)", "rest[0]"),
    ],
)
def test_an_unpacked_result_read_by_later_timed_work_points_the_finding_at_that_work(split, read):
    """Case 309 (Transformer Engine's ``speedometer``): the key split is the step's input, and the step is the work
    left pending when the clock stops, so LB102 points at the step, not at the split (as for ``x = ...``)."""
    source = textwrap.dedent(UNPACKED_INPUT.format(split=split, read=read))
    found = [d for d in lint_source(source, "case.py") if d.code == "LB102"]
    step_line = next(k for k, line in enumerate(source.splitlines(), 1) if "loss = step(" in line)
    assert [d.location.line for d in found] == [step_line], [(d.location.line, d.message) for d in found]
