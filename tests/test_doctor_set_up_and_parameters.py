"""What a program builds before it times, what a notebook of definitions runs, and what a test is given.

- ``map(init_layer, keys, sizes[:-1], sizes[1:])`` is a loop written as a call: over a model's layers it is a
  handful of dispatches at set-up, as the same loop written as a comprehension is (LB114 quiet); over data it is
  still op by op.
- A notebook whose cells only import and define functions runs nothing, as the same file as a script does not: a
  timing helper's bookkeeping between samples (``jnp.array(samples).min()`` per repeat) is its callers' business
  in both forms (case 252, GenJAX's ``timing``), and a cell that runs a loop still runs it.
- A test's parameter that ``@pytest.mark.parametrize('xp', [np, torch, jnp])`` lists takes each listed value, also
  where the test hands it on (``benchmark(run, a, xp)``): with ``jax.numpy`` among them ``xp.matmul(a, a)`` may be
  JAX, as under ``jnp if c else np`` (case 250's LB102). A list with no JAX module in it stays NumPy's and torch's.
- Such code converts one float64 NumPy array for each framework (``xp.asarray(a)``): float64 under NumPy and
  PyTorch, float32 under JAX without x64, so its figures compare two precisions (case 250's LB108).
"""

from __future__ import annotations

import json
import textwrap

from levelbench.doctor import lint_source


def codes_at(source: str, path: str = "bench.py") -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), path)}


def notebook_codes(*cells: str) -> set[tuple[str, int, int]]:
    """(code, cell, line) of each finding on a notebook of these code cells."""
    text = json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": "code", "metadata": {}, "source": textwrap.dedent(c).strip("\n"), "outputs": []}
                  for c in cells],
    })
    return {(d.code, d.location.cell, d.location.line) for d in lint_source(text, "bench.ipynb")}


INIT = """
import jax
import jax.numpy as jnp

def init_layer(key, n_in, n_out):
    k1, k2 = jax.random.split(key)
    w = jax.random.normal(k1, (n_in, n_out)) * jnp.sqrt(2.0 / n_in)
    return w, jnp.zeros(n_out)

def init_mlp(key, {sizes}):
    ks = jax.random.split(key, len({sizes}))
    return list(map(init_layer, ks, {sizes}[:-1], {sizes}[1:]))

params = init_mlp(jax.random.key(1), [32, 64, 64, 4])
"""


def test_a_map_over_a_models_layers_at_set_up_is_read_as_the_loop_it_is():
    assert not {c for c, _ in codes_at(INIT.format(sizes="layer_widths"))} & {"LB114"}
    comprehension = INIT.format(sizes="layer_widths").replace(
        "list(map(init_layer, ks, layer_widths[:-1], layer_widths[1:]))",
        "[init_layer(k, m, n) for k, m, n in zip(ks, layer_widths[:-1], layer_widths[1:])]",
    )
    assert not {c for c, _ in codes_at(comprehension)} & {"LB114"}


def test_a_map_over_data_still_dispatches_op_by_op():
    source = """
    import jax
    import jax.numpy as jnp

    def normalize(x):
        return (x - jnp.mean(x)) / jnp.std(x)

    batches = [jax.random.normal(jax.random.key(i), (512,)) for i in range(1000)]
    normalized = list(map(normalize, batches))
    """
    assert ("LB114", 9) in codes_at(source)


HELPER = """
def best_of(fn, repeats=100, inner=50):
    samples = []
    for _ in range(repeats):
        inner_times = []
        for _ in range(inner):
            t0 = time.perf_counter()
            jax.block_until_ready(fn())
            inner_times.append(time.perf_counter() - t0)
        samples.append(float(jnp.min(jnp.asarray(inner_times)) * jnp.float32(1e3)))
    return samples
"""


def test_a_notebook_of_definitions_runs_nothing_as_its_script_does_not():
    imports = "import time\nimport jax\nimport jax.numpy as jnp"
    assert not {c for c, *_ in notebook_codes(imports, HELPER)} & {"LB114"}
    assert not {c for c, _ in codes_at(imports + "\n" + HELPER)} & {"LB114"}


def test_a_notebook_cell_that_runs_a_loop_still_runs_it():
    imports = "import jax\nimport jax.numpy as jnp\nx = jnp.ones(100)"
    loop = """
    for step in range(10000):
        x = jnp.tanh(x) * 0.5 + jnp.sin(x)
    """
    assert ("LB114", 2, 1) in notebook_codes(imports, loop)


PARAMETRIZED = """
import numpy as np
import pytest
import torch
import jax.numpy as jnp


def product(x, backend):
    return backend.matmul(x, x.T)


@pytest.mark.parametrize("backend", {modules})
def test_product(benchmark, backend):
    x = backend.asarray(np.ones((256, 256), dtype=np.float32))
    benchmark({timed})
"""


def test_a_parametrized_module_that_may_be_jax_numpy_makes_the_timed_call_jax():
    source = PARAMETRIZED.format(modules="[np, torch, jnp]", timed="product, x, backend")
    assert ("LB102", 15) in codes_at(source, "test_products.py")
    rows = PARAMETRIZED.replace('"backend"', '"backend, n"').format(
        modules="[(np, 1), pytest.param(jnp, 2, id='jax')]", timed="product, x, backend"
    ).replace("def test_product(benchmark, backend):", "def test_product(benchmark, backend, n):")
    assert ("LB102", 15) in codes_at(rows, "test_products.py")
    chosen = PARAMETRIZED.replace('@pytest.mark.parametrize("backend", {modules})\n', "").replace(
        "def test_product(benchmark, backend):", "def test_product(benchmark):\n    backend = jnp if GPU else np"
    ).format(timed="product, x, backend")
    assert ("LB102", 15) in codes_at(chosen, "test_products.py")


def test_a_parametrized_module_list_without_jax_or_a_waited_call_stays_quiet():
    no_jax = PARAMETRIZED.format(modules="[np, torch]", timed="product, x, backend")
    assert not {c for c, _ in codes_at(no_jax, "test_products.py")} & {"LB102"}
    waited = PARAMETRIZED.format(modules="[np, jnp]", timed="lambda: jax.block_until_ready(product(x, backend))")
    assert not {c for c, _ in codes_at("import jax" + waited, "test_products.py")} & {"LB102"}


CONVERTED = """
import numpy as np
import pytest
import jax.numpy as jnp
{setting}

@pytest.mark.parametrize("xp", {modules})
def test_solve(benchmark, xp):
    rng = np.random.default_rng(0)
    m = xp.asarray(rng.standard_normal((128, 128)){dtype})
    benchmark(lambda: xp.linalg.inv(m).block_until_ready() if xp is jnp else xp.linalg.inv(m))
"""


def test_one_float64_array_converted_for_numpy_and_jax_asks_jax_for_float64():
    source = CONVERTED.format(setting="", modules="[np, jnp]", dtype="")
    assert ("LB108", 10) in codes_at(source, "test_inverse.py")


def test_a_converted_array_of_a_stated_dtype_or_under_x64_or_for_numpy_alone_stays_quiet():
    stated = CONVERTED.format(setting="", modules="[np, jnp]", dtype=", dtype=np.float32")
    enabled = CONVERTED.format(setting="import jax\njax.config.update('jax_enable_x64', True)", modules="[np, jnp]",
                               dtype="")
    numpy_only = CONVERTED.format(setting="", modules="[np]", dtype="")
    for source in (stated, enabled, numpy_only):
        assert not {c for c, _ in codes_at(source, "test_inverse.py")} & {"LB108"}


def test_a_submodule_of_a_parametrized_module_is_that_module_s():
    source = PARAMETRIZED.replace("return backend.matmul(x, x.T)", "return backend.linalg.inv(x)").format(
        modules="[np, jnp]", timed="product, x, backend"
    )
    assert ("LB102", 15) in codes_at(source, "test_products.py")
