"""A clock pair in a method the program runs once through an instance takes one sample
(`_facts.Facts.runs_once_through_an_instance`, `_regions._Finder._runs_once`).

How many runs a clock pair's interval holds follows the function's call sites: one call by name, one sample. A method
is called through an object (``timer = Stopwatch(); timer.measure(x)``), which `call_sites` does not see, so the pair
in it was "unknown" and LB104 stayed quiet. Where the instance's class is a local class, the method's one call through
an instance of it, outside any loop, is now its one run: LB104. Called in a loop, called twice, or also reached some
other way (``self.measure``), how often it runs is not what one call says, and the reading stays as it was.
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source

PROGRAM = """
import time
import jax.numpy as jnp


class Stopwatch:
    def __init__(self, size):
        self.a = jnp.ones((size, size))

    def measure(self, power):
        begin = time.monotonic()
        out = jnp.linalg.matrix_power(self.a, power).block_until_ready()
        elapsed = time.monotonic() - begin
        return out, elapsed


def report():
    timer = Stopwatch(128)
{calls}


if __name__ == "__main__":
    report()
"""


def lb104(calls: str) -> list[int]:
    source = textwrap.dedent(PROGRAM.format(calls=textwrap.indent(calls, "    ")))
    return sorted(d.location.line for d in lint_source(source, "watch.py") if d.code == "LB104")


def _line_of(text: str) -> int:
    return next(i for i, line in enumerate(textwrap.dedent(PROGRAM).splitlines(), 1) if text in line)


def test_a_method_run_once_through_an_instance_is_one_sample():
    timed = _line_of("out = jnp.linalg.matrix_power")
    assert lb104("print(timer.measure(5)[1])") == [timed]  # on c3db5ba: none, the samples were "unknown"
    assert lb104("result, seconds = timer.measure(power=3)") == [timed]


def test_a_method_run_in_a_loop_or_twice_is_not_read_as_one_run():
    assert lb104("for p in range(2, 6):\n    print(timer.measure(p))") == []
    assert lb104("timer.measure(2)\ntimer.measure(3)") == []
    assert lb104("run = timer.measure\nrun(2)") == []  # the method handed on: its calls are not followed
