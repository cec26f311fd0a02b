"""Float64 NumPy inputs that a timed JAX function converts, timed beside a float64 baseline (case 334).

`lb108_float64._conversions_timed_beside_float64_baselines`: gradi-mojo times a jitted descent that turns the arrays
its callers hand it (``np.random.rand``, ``np.array(..., dtype=np.float64)``) into JAX arrays with ``jnp.array``,
beside NumPy and C++ versions handed the same float64 arrays. With x64 off JAX computes in float32 while the
baselines run in float64 (LB108, at the conversion, case 081's reading carried from a comparison of values to a
comparison of timings). The same shape written other ways (aliased, the timing in a helper, another clock, notebook
cells) reads alike; x64 on, a float32 input, or no baseline timed leaves LB108 out.
"""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source


def lb108(source: str, path: str = "example.py") -> list[int]:
    return [d.location.line for d in lint_source(textwrap.dedent(source), path) if d.code == "LB108"]


DESCENT = """
import timeit
{imports}
from functools import partial
from baselines import descent_numpy


@partial(jax.jit, static_argnums=(2,))
def descent_jax(X, D, steps=100):
    D = {jnp}.array(D)
    X = {jnp}.array(X)
    return X - 0.1 * D.sum() * steps


def time_it(fn, X, D):
    {clock}


def bench(D, dim):
    D = np.array(D, dtype=np.float64)
    X = {draw}
    descent_jax(X.copy(), D)
    print(time_it(descent_numpy, X.copy(), D))
    print(time_it(descent_jax, X.copy(), D))


if __name__ == "__main__":
    {setup}
    bench([[0.0, 1.0], [1.0, 0.0]], 2)
"""


def descent(imports="import jax\nimport jax.numpy as jnp\nimport numpy as np", jnp="jnp",
            clock="return timeit.timeit(lambda: fn(X, D, 100), number=10) / 10", draw="np.random.rand(2, dim)", setup="pass"):
    return DESCENT.format(imports=imports, jnp=jnp, clock=clock, draw=draw, setup=setup)


CONVERSION = 12  # `D = jnp.array(D)`


def test_float64_inputs_of_a_timed_jax_function_beside_a_float64_baseline():
    assert lb108(descent()) == [CONVERSION]


def test_aliased_imports_read_alike():
    imports = "import jax as jx\nimport jax.numpy as xnp\nimport numpy as onp\njax = jx\nnp = onp"
    assert lb108(descent(imports=imports, jnp="xnp")) == [CONVERSION + 2]


def test_another_clock_reads_alike():
    clock = "t0 = time.perf_counter()\n    fn(X, D, 100)\n    return time.perf_counter() - t0"
    source = descent(clock=clock).replace("import timeit\n", "import time\n")
    assert lb108(source) == [CONVERSION]


def test_notebook_cells_read_alike():
    source = textwrap.dedent(descent())
    head, tail = source.split("\n\ndef time_it(fn, X, D):\n")
    cells = [head, "def time_it(fn, X, D):\n" + tail]
    notebook = json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "source": c.splitlines(keepends=True)} for c in cells],
        "metadata": {"kernelspec": {"language": "python", "name": "python3"}}, "nbformat": 4, "nbformat_minor": 5,
    })
    found = [d for d in lint_source(notebook, "example.ipynb") if d.code == "LB108"]
    assert len(found) == 1 and found[0].location.cell == 1, found


def test_x64_on_leaves_it_out():
    assert lb108(descent(setup='jax.config.update("jax_enable_x64", True)')) == []


def test_float32_inputs_leave_it_out():
    source = descent(draw="np.random.rand(2, dim).astype(np.float32)").replace(
        "D = np.array(D, dtype=np.float64)", "D = np.array(D, dtype=np.float32)"
    )
    assert lb108(source) == []


def test_no_baseline_timed_leaves_it_out():
    source = descent().replace("    print(time_it(descent_numpy, X.copy(), D))\n", "")
    assert lb108(source) == []
