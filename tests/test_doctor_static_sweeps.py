"""A jit made per call of a function that each pass of a sweep calls with a new static value (case 295).

``jitted = jax.jit(f, static_argnums=(3,))`` in ``timing(dataset, n_particles)``, called ``jitted(key, xs, ys,
n_particles)`` (in the function or a task it hands a harness): JAX compiles once per static value, so each call of
``timing`` from ``for n_particles in counts:`` compiles for its own value, and a jit made once outside would compile
as often. Not LB111. The same function called twice with one value still is.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


SWEEP = """\
import time
import jax
import jax.numpy as jnp

def timing(xs, n_particles, repeats=100):
    def sample(key, xs, n):
        keys = jax.random.split(key, n)
        return jax.vmap(lambda k: jnp.sum(jax.random.normal(k, xs.shape) * xs))(keys)

    jitted = jax.jit(sample, {static})

    def task():
        return jax.block_until_ready(jitted(jax.random.PRNGKey(0), xs, {given}))

    task()
    start = time.perf_counter()
    for _ in range(repeats):
        task()
    return (time.perf_counter() - start) / repeats

if __name__ == "__main__":
    xs = jnp.ones(50)
    {calls}
"""

LOOP = "for n_particles in [100, 1000, 10000]:\n        print(timing(xs, n_particles))"


@pytest.mark.parametrize(
    ("static", "given"),
    [("static_argnums=(2,)", "n_particles"), ("static_argnums=2", "n_particles"),
     ("static_argnames=('n',)", "n=n_particles")],
)
def test_each_pass_of_a_sweep_compiles_for_its_own_static_value(static, given):
    found = findings(SWEEP.format(static=static, given=given, calls=LOOP))
    assert not any(code == "LB111" for code, _ in found)


def test_the_counts_read_from_the_command_line_are_a_sweep_too():
    calls = "import sys\n    for count in map(int, sys.argv[1:]):\n        print(timing(xs, n_particles=count))"
    found = findings(SWEEP.format(static="static_argnums=(2,)", given="n_particles", calls=calls))
    assert not any(code == "LB111" for code, _ in found)


def test_the_same_value_timed_twice_still_recompiles():
    calls = "print(timing(xs, 100))\n    print(timing(xs, 100))"
    found = findings(SWEEP.format(static="static_argnums=(2,)", given="n_particles", calls=calls))
    assert ("LB111", 10) in found


def test_a_loop_that_passes_no_static_value_still_recompiles():
    calls = "for repeats in [10, 100]:\n        print(timing(xs, 100, repeats))"
    found = findings(SWEEP.format(static="static_argnums=(2,)", given="n_particles", calls=calls))
    assert ("LB111", 10) in found
