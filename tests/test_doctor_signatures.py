"""What a jitted call's argument signature is, as the doctor reads it, and what a timing's figure is reported as.

- A Python scalar and ``jnp.array``/``jnp.asarray`` of one without a dtype have one abstract value (``int32[]``,
  weakly typed; checked with ``jax_log_compiles`` on jax 0.10.2: one compile for ``f(0)`` then
  ``f(jnp.array(5))``); a dtype or ``jnp.int32(...)`` makes it strongly typed, another signature.
- ``len(history)`` of a list that grows is a number whose value changes, not a container whose shape does: traced,
  it compiles once; static, every new value compiles.
- A clock pair whose interval is kept under a name and reported as compile time (``counters["jit_time"] = first``)
  times compilation on purpose, as when the words sit on the timing itself.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source


def codes(source: str) -> set[str]:
    return {d.code for d in lint_source(textwrap.dedent(source), "case.py")}


WARM_THEN_TIMED = """
import time
import jax
import jax.numpy as jnp

@jax.jit
def simulate(seed):
    key = jax.random.PRNGKey(seed)
    return jax.random.normal(key, (256, 256)).sum()

trial, durations = 3, [1.0, 2.0]
simulate({warm}).block_until_ready()
t0 = time.perf_counter()
simulate({timed}).block_until_ready()
print(time.perf_counter() - t0)
"""


@pytest.mark.parametrize(
    ("warm", "timed"),
    [("0", "jnp.array(trial)"), ("7", "jnp.asarray(len(durations))"), ("jnp.array(1)", "trial"), ("0", "int(trial)")],
)
def test_a_python_int_warms_a_weakly_typed_array_of_one(warm, timed):
    assert "LB103" not in codes(WARM_THEN_TIMED.format(warm=warm, timed=timed))


@pytest.mark.parametrize(
    ("warm", "timed"),
    [("0", "jnp.array(trial, dtype=jnp.int32)"), ("0", "jnp.int32(trial)"), ("0.5", "jnp.array(trial)")],
)
def test_a_strongly_typed_or_other_dtype_argument_is_another_signature(warm, timed):
    assert "LB103" in codes(WARM_THEN_TIMED.format(warm=warm, timed=timed))


GROWING = """
import time
from functools import partial
import jax
import jax.numpy as jnp

@partial(jax.jit, static_argnames=("n",))
def step(x, n=1):
    return x * n

history = []
x = jnp.ones(8)
step(x).block_until_ready()
for i in range(50):
    t0 = time.perf_counter()
    step({args}).block_until_ready()
    history.append(time.perf_counter() - t0)
print(sum(history) / len(history))
"""


def test_the_length_of_a_growing_list_is_a_changing_value_not_a_changing_shape():
    assert "LB117" not in codes(GROWING.format(args="x * len(history)"))


@pytest.mark.parametrize("args", ["jnp.array(history)", "x, n=len(history)"])
def test_the_growing_list_itself_or_its_length_as_a_static_argument_retraces(args):
    assert "LB117" in codes(GROWING.format(args=args))


REPORTED = """
import time
import jax
import jax.numpy as jnp

@jax.jit
def solve(a):
    return jnp.linalg.solve(a, a.sum(1))

def report(a, results):
    t0 = time.perf_counter()
    solve(a).block_until_ready()
    cold = time.perf_counter() - t0
    results["{key}"] = cold

report(jnp.eye(64), {{}})
"""


def test_an_interval_reported_as_compile_time_times_compilation_on_purpose():
    assert "LB103" not in codes(REPORTED.format(key="jit_time"))
    assert "LB103" not in codes(REPORTED.format(key="compile_seconds"))


def test_an_interval_reported_as_anything_else_still_times_a_first_call():
    assert "LB103" in codes(REPORTED.format(key="latency"))


HARNESS_REPORTED = """
import timeit
import jax
import jax.numpy as jnp

@jax.jit
def solve(a):
    return jnp.linalg.solve(a, a.sum(1))

a = jnp.eye(64)
first = {harness}
summary = {{"{key}": first}}
print(summary)
"""

HARNESSES = ["timeit.timeit(lambda: solve(a).block_until_ready(), number=1)",
             "timeit.Timer(lambda: solve(a).block_until_ready()).timeit(number=1)"]


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_harness_figure_kept_and_reported_as_compile_time_times_compilation_on_purpose(harness):
    assert "LB103" not in codes(HARNESS_REPORTED.format(harness=harness, key="compile_time"))


@pytest.mark.parametrize("harness", HARNESSES)
def test_a_harness_figure_reported_as_anything_else_still_times_a_first_call(harness):
    assert "LB103" in codes(HARNESS_REPORTED.format(harness=harness, key="latency"))
