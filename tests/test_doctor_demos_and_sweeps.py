"""What the doctor reads in the shape of a lesson or a size study: who owns a nested function's state, whose
settings a script's functions run under, host data built inside a timing, and a grid of sizes written out one call
at a time.

- A jitted def that declares ``nonlocal`` works on the enclosing call's own variable (a trace counter): it is made
  from that call, like any closure, and cannot simply be made once outside (LB111 stays quiet on such a def).
- A script or notebook is a program: its functions run under the settings it makes, called here or not, so a
  float64 request in one of them, with x64 never enabled, is truncated (LB108); a module's functions are for its
  importers.
- ``jnp.array([1.0, 2.0])`` inside a timing that also times the JAX work it feeds adds a host-to-device copy to that
  work, as a NumPy array does (LB115).
- ``timed(10000)``, ``timed(30000)``: calls that each pass another number are a sweep written out, one sample per
  value (LB104), and a jit made inside such a function compiles for each new size anyway (no LB111).

Each positive test has quiet twins: the same code made correct, which must stay silent.
"""

from __future__ import annotations

import json
import textwrap

import pytest

from levelbench.doctor import lint_source


def found(source: str) -> set[tuple[str, int]]:
    """(code, line) of every finding of a script."""
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "case.py")}


def codes(source: str) -> set[str]:
    return {code for code, _ in found(source)}


def notebook_codes(*cells: str) -> set[str]:
    text = json.dumps({
        "nbformat": 4, "nbformat_minor": 5, "metadata": {},
        "cells": [{"cell_type": "code", "metadata": {}, "source": textwrap.dedent(c).strip("\n"), "outputs": []}
                  for c in cells],
    })
    return {d.code for d in lint_source(text, "case.ipynb", notebook=True)}


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


# --- float64 in a program's function ------------------------------------------------------------------------------
WIDE_GRID = """
import jax
import jax.numpy as jnp
{x64}
def wide_grid(n):
    return jnp.linspace(0.0, 1.0, n, dtype="float64")
{work}
"""
TOP_LEVEL_WORK = "\nvalues = jnp.ones(8) * 3\nprint(values.sum())\n"


def test_a_scripts_function_asks_for_float64_under_the_scripts_settings():
    assert ("LB108", 6) in found(WIDE_GRID.format(x64="", work=TOP_LEVEL_WORK))


def test_a_notebooks_function_asks_for_float64_before_a_later_cell_calls_it():
    definition = 'import jax.numpy as jnp\n\ndef widen(v):\n    return v.astype(jnp.float64) + jnp.zeros(3, dtype=jnp.float64)\n'
    assert "LB108" in notebook_codes(definition, "x = jnp.arange(3.0)")


@pytest.mark.parametrize(
    ("x64", "work"),
    [
        ('jax.config.update("jax_enable_x64", True)', TOP_LEVEL_WORK),  # the script enables x64
        ("", ""),  # a module of definitions: its importers set x64
        ("", "\nEYE = jnp.eye(3)\n"),  # a module's constant is framework work, not a program's run
        ("", '\nif __name__ == "__main__":\n    print(jnp.ones(3).sum())\n'),  # work only when run: a module too
    ],
)
def test_float64_is_not_reported_where_x64_is_on_or_the_importers_decide(x64, work):
    assert "LB108" not in codes(WIDE_GRID.format(x64=x64, work=work))


# --- host data built inside a timing -------------------------------------------------------------------------------
SCALE = """
import time
import jax
import jax.numpy as jnp

@jax.jit
def scale(v):
    return 3 * v
{before}
t0 = time.perf_counter()
out = {timed}
out.block_until_ready()
print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize("literal", ["[[1, 2], [3, 4]]", "(0.5, -1.5, 2.0)"])
def test_numbers_written_in_a_timed_call_are_copied_inside_the_timing(literal):
    assert ("LB115", 11) in found(SCALE.format(before="", timed=f"scale(jnp.asarray({literal}))"))


@pytest.mark.parametrize(
    ("before", "timed"),
    [
        ("v = jnp.asarray([[1, 2], [3, 4]])\nv.block_until_ready()", "scale(v)"),  # copied before the clock
        ("", "jnp.asarray([[1, 2], [3, 4]])"),  # the copy is what is timed
        ("a = jnp.ones(2)\nb = jnp.zeros(2)", "scale(jnp.array((a, b)))"),  # device arrays stacked on the device
    ],
)
def test_no_host_copy_beside_the_timed_work(before, timed):
    assert "LB115" not in codes(SCALE.format(before=before, timed=timed))


# --- a sweep written out one call at a time ------------------------------------------------------------------------
SIZES = """
import time
import jax
import jax.numpy as jnp

def bench(n, label):
    a = jnp.ones((n, n))
    jnp.dot(a, a).block_until_ready()
    begin = time.monotonic()
    {timed}
    print(label, n, time.monotonic() - begin)

{calls}
"""
ONE_RUN = "jnp.dot(a, a).block_until_ready()"
WRITTEN_OUT = 'bench(128, "small")\nbench(512, "medium")\nbench(2048, "large")'


def test_calls_that_each_pass_another_size_time_one_sample_per_size():
    assert ("LB104", 10) in found(SIZES.format(timed=ONE_RUN, calls=WRITTEN_OUT))


@pytest.mark.parametrize(
    ("timed", "calls"),
    [
        (ONE_RUN, 'bench(512, "a")\nbench(512, "b")\nbench(512, "c")'),  # the same size again: repeats
        ("for _ in range(20):\n        jnp.dot(a, a).block_until_ready()", WRITTEN_OUT),  # a total per size
        ("for _ in range(20):\n        jnp.dot(a, a).block_until_ready()", "for n in (128, 512, 2048):\n    bench(n, 'x')"),
        (ONE_RUN, "for n in (128, 512, 2048):\n    for _ in range(5):\n        bench(n, 'x')"),  # repeated per size
    ],
)
def test_repeats_or_totals_per_size_are_not_one_sample(timed, calls):
    assert "LB104" not in codes(SIZES.format(timed=timed, calls=calls))


PER_SIZE_JIT = """
import time
import jax
import jax.numpy as jnp

def cumulative(pair):
    return jnp.cumsum(pair[0]) + pair[1]

def compare(size):
    data = (jnp.ones({shape}), jnp.zeros({shape}))
    batched = jax.jit(jax.vmap(cumulative))
    batched(data)[0].block_until_ready()
    t0 = time.perf_counter()
    batched(data)[0].block_until_ready()
    print(size, time.perf_counter() - t0)

{calls}
"""
GROWING_SIZES = "compare(1000)\ncompare(4000)\ncompare(16000)"


def test_a_jit_made_per_call_compiles_for_each_new_size_anyway():
    assert "LB111" not in codes(PER_SIZE_JIT.format(shape="(2, size)", calls=GROWING_SIZES))


@pytest.mark.parametrize(
    ("shape", "calls"),
    [
        ("(2, size)", "compare(1000)\ncompare(1000)\ncompare(1000)"),  # the same size each call
        ("(2, size)", "for _ in range(3):\n    compare(1000)"),
        ("(2, 1000)", GROWING_SIZES),  # the size is only printed: the same shapes each call
    ],
)
def test_a_jit_made_per_call_with_the_same_sizes_recompiles(shape, calls):
    assert "LB111" in codes(PER_SIZE_JIT.format(shape=shape, calls=calls))
