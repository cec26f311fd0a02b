"""An eager function or JAX operation given arrays of a new shape compiles again (`_warmth.Warmth.warms`, case 322).

JAX caches an eager operation's executable per shape, as jit does a function's: QuantEcon's `jax_intro` times the
un-jitted ``f(x)`` on 50,000,000 ones twice, then ``f(y)`` on 50,000,001 ones twice ('if we run it a second time it
becomes faster again'). The earlier ``f(x)`` does not warm ``f(y)``, so the first ``f(y)`` timing is a compile timed
on purpose, as the first ``f(x)`` one is: no LB104 there. The second of each pair stays a single warm sample.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

LECTURE = """
import time
import jax
import jax.numpy as jnp
import quantecon as qe

def f(x):
    return jnp.sum(3 * x + jnp.sin(x))

n = 50_000_000
x = jnp.ones({first})
{timed_x}
{timed_x}
m = 50_000_001
y = jnp.ones({second})
{timed_y}
{timed_y}
"""

TIMERS = {
    "qe.Timer": "with qe.Timer():\n    f({arg}).block_until_ready()",
    "perf_counter": "t0 = time.perf_counter()\nf({arg}).block_until_ready()\nprint(time.perf_counter() - t0)",
}


def lb104(source: str) -> list[int]:
    return sorted(d.location.line for d in lint_source(textwrap.dedent(source), "lecture.py") if d.code == "LB104")


def _lecture(timer: str, first: str, second: str) -> str:
    return LECTURE.format(first=first, second=second, timed_x=TIMERS[timer].format(arg="x"),
                          timed_y=TIMERS[timer].format(arg="y"))


def test_a_new_shape_is_a_cold_call_timed_again_warm_on_purpose():
    for timer in TIMERS:
        for first, second in (("n", "m"), ("(3, 4)", "(4, 4)"), ("n", "(2, 2)")):
            source = _lecture(timer, first, second)
            lines = source.splitlines()
            second_y = max(i for i, line in enumerate(lines, 1) if "f(y)" in line)
            second_x = max(i for i, line in enumerate(lines, 1) if "f(x)" in line)
            assert lb104(source) == [second_x, second_y], (timer, first, second)


def test_the_same_shape_is_warm_already():
    source = _lecture("qe.Timer", "n", "n")
    lines = source.splitlines()
    first_y = min(i for i, line in enumerate(lines, 1) if "f(y)" in line)
    assert first_y in lb104(source)  # warmed by the f(x) runs: one warm sample
