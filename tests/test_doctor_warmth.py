"""The doctor's notion of a warmed call: the same jitted value, called before with a signature jit cannot tell apart.

Each test writes one mistake several ways (LB103: the timed call is the first of its compiled function) beside the
same code with a true warm-up, which must stay quiet: the answer follows the value and the arguments, not the
spelling of the callee.
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source
from tests.test_doctor_rules import found, nb

HEADER = """
import time
import jax
import jax.numpy as jnp

def g(v, n=1):
    return v * n

def h(v, n=1):
    return v + n

f_jit = jax.jit(g)
x = jnp.ones(1000)
"""

TIMED = "t0 = time.perf_counter()\nf_jit({args}).block_until_ready()\nprint(time.perf_counter() - t0)\n"


def lb103_lines(source: str, *, notebook: bool = False) -> list[int]:
    return [line for code, _, line in found(source, notebook=notebook) if code == "LB103"]


def timed_after(warm_up: str, args: str = "x") -> str:
    return HEADER + warm_up + "\n" + TIMED.format(args=args)


def timed_line(source: str) -> int:
    """The line of the timed call in ``source`` (as `found` numbers it: the dedented text)."""
    lines = textwrap.dedent(source).splitlines()
    return 1 + max(i for i, text in enumerate(lines) if text.startswith("f_jit(") and "block_until_ready" in text)


@pytest.mark.parametrize(
    "warm_up",
    [
        "f_jit(x)",
        "f_jit(x).block_until_ready()",
        "y = x\nf_jit(x)",  # another name bound: not the callee, not the argument
        "f_jit(jnp.zeros(1000))",  # the same literal shape
        "f_jit(x, n=1)\nf_jit(x)",
        "f_jit(x)\nf_jit = jax.jit(g)",  # the same jit of the same function: JAX's caches are per function
    ],
)
def test_a_warm_up_with_the_same_value_and_signature_counts(warm_up):
    assert lb103_lines(timed_after(warm_up)) == []


@pytest.mark.parametrize(
    ("warm_up", "args"),
    [
        ("f_jit(x)\nf_jit = jax.jit(h)", "x"),  # rebound: another jitted function
        ("f_jit(x)\nf_jit = jax.jit(lambda v: g(v))", "x"),  # a new lambda each time
        ("f_jit(x)\ng = h\nf_jit = jax.jit(g)", "x"),  # the same text, another function
        ("f_jit([1.0, 2.0, 3.0])", "x"),  # a list is a pytree of scalars: another signature
        ("f_jit(x)", "[1.0, 2.0]"),
        ("f_jit([1.0, 2.0])", "[1.0, 2.0, 3.0]"),  # another length: another pytree
        ("xs = [1.0, 2.0]\nf_jit(xs)\nxs = jnp.asarray(xs)", "xs"),  # the argument's name rebound to an array
        ("f_jit(x)", "x, 2"),  # another number of arguments
        ("f_jit(x, 2)", "x, n=2"),  # a keyword instead of a positional argument
        ("f_jit(jnp.ones(10))", "jnp.ones(20)"),  # literal shapes that differ
        ("f_jit(3)", "3.0"),  # a weakly typed int against a float
    ],
)
def test_a_call_the_source_shows_compiles_again_is_no_warm_up(warm_up, args):
    source = timed_after(warm_up, args)
    assert lb103_lines(source) == [timed_line(source)]


@pytest.mark.parametrize(
    ("warm_up", "args"),
    [
        ("f_jit(y)", "x"),  # y's form is not known: counted as the same
        ("f_jit(x)\nif x.size > 3:\n    f_jit = jax.jit(g)", "x"),  # rebound on one path only
        ("f_jit(x, 2)", "x, 3"),  # a traced scalar: its value does not matter
        ("f_jit(*[x])", "x, 2"),  # a starred argument: the count is not known
    ],
)
def test_unknown_counts_as_warmed(warm_up, args):
    assert lb103_lines(timed_after(warm_up, args)) == []


def test_a_loop_that_rebinds_the_callee_below_the_timing_stays_quiet():
    source = HEADER + "f_jit(x)\nfor n in range(3):\n    " + TIMED.replace("\n", "\n    ").rstrip() + "\n    f_jit = jax.jit(h)\n"
    assert "LB103" not in {code for code, _, _ in found(source)}


def test_another_value_of_a_static_argument_compiles_again():
    header = HEADER.replace("f_jit = jax.jit(g)", "f_jit = jax.jit(g, static_argnums=1)")
    assert lb103_lines(header + "f_jit(x, 2)\n" + TIMED.format(args="x, 2")) == []
    source = header + "f_jit(x, 2)\n" + TIMED.format(args="x, 3")
    assert lb103_lines(source) == [timed_line(source)]
    names = HEADER.replace("f_jit = jax.jit(g)", "f_jit = jax.jit(g, static_argnames='n')")
    assert lb103_lines(names + "f_jit(x, n=2)\n" + TIMED.format(args="x, n=2")) == []
    source = names + "f_jit(x, n=2)\n" + TIMED.format(args="x, n=3")
    assert lb103_lines(source) == [timed_line(source)]


def test_a_timing_helper_is_warmed_only_by_a_matching_call_before_it_is_called():
    helper = "def bench():\n    " + TIMED.format(args="{args}").replace("\n", "\n    ").rstrip() + "\n"
    timed = textwrap.dedent(HEADER).count("\n") + 3  # the helper's call line, after `def bench():` and t0
    quiet = HEADER + helper.format(args="x") + "f_jit(x)\nbench()\n"
    assert lb103_lines(quiet) == []
    listed = HEADER + helper.format(args="x") + "f_jit([1.0, 2.0])\nbench()\n"
    assert lb103_lines(listed) == [timed]


def test_notebook_cells_follow_the_binding_in_effect():
    cells = [HEADER, "f_jit(x).block_until_ready()", "f_jit = jax.jit(h)", TIMED.format(args="x")]
    assert [cell for code, cell, _ in found(nb(*cells), notebook=True) if code == "LB103"] == [4]
    assert "LB103" not in {code for code, _, _ in found(nb(*cells[:2], cells[3]), notebook=True)}


def test_lb104_says_no_warm_up_only_where_none_ran():
    single = "start = time.time()\nf_jit(x).block_until_ready()\nprint(time.time() - start)\n"

    def lb104(source: str) -> str:
        return next(d.message for d in lint_source(textwrap.dedent(source), "s.py") if d.code == "LB104")

    assert "no warm-up" not in lb104(HEADER + "f_jit(x)\n" + single)
    assert "no warm-up" in lb104(HEADER + "f_jit(x)\nf_jit = jax.jit(h)\n" + single)
    assert "no warm-up" in lb104(HEADER + "f_jit([1.0])\n" + single)


@pytest.mark.parametrize(
    ("statement", "warmed"),
    [
        ("jax.lax.while_loop(lambda v: v.sum() < 0, g, x)", False),  # a new lambda each run: compiled again
        ("jax.lax.fori_loop(0, 3, lambda i, v: v + i, x)", False),
        ("jax.lax.while_loop(cond, g, x)", True),  # the same function objects: the first run warms the second
        ("jax.lax.fori_loop(0, 3, body, x)", True),
    ],
)
def test_eager_control_flow_is_warmed_only_by_the_same_function_objects(statement, warmed):
    """Outside jit, lax control flow compiles its functions per object: a lambda written in the statement is a new
    object every run, so an identical statement before it warms nothing (jax-ml/jax#587)."""
    functions = "def cond(v):\n    return v.sum() < 0\n\ndef body(i, v):\n    return v + i\n\n"
    single = f"start = time.time()\njax.block_until_ready({statement})\nprint(time.time() - start)\n"
    source = HEADER + functions + f"jax.block_until_ready({statement})\n" + single
    message = next(d.message for d in lint_source(textwrap.dedent(source), "s.py") if d.code == "LB104")
    assert ("no warm-up" not in message) is warmed


@pytest.mark.parametrize("handed", ["run", "lambda: run()"])
def test_a_callable_handed_to_a_timing_harness_is_run_by_it(handed):
    """``timeit.timeit(solve_, number=1)`` twice, 'Compile+run time' then 'Run time' (diffrax's scan_stages.py,
    case 270): the first run is a compile timed on purpose and the warm-up of the second, which times no compile."""
    harness = HEADER.replace("import time", "import functools\nimport time\nimport timeit")
    harness += "run = functools.partial(f_jit, x)\n"
    twice = f"print('Compile+run', timeit.timeit({handed}, number=1))\nprint('Run', timeit.timeit({handed}, number=1))\n"
    assert lb103_lines(harness + twice) == []
    message = next(d.message for d in lint_source(textwrap.dedent(harness + twice), "s.py") if d.code == "LB104")
    assert "no warm-up" not in message
    # another jitted function run by the first harness warms nothing
    other = harness + "other = functools.partial(jax.jit(h), x)\ntimeit.timeit(other, number=1)\n" + TIMED.format(args="x")
    assert timed_line(other) in lb103_lines(other)


@pytest.mark.parametrize(
    "handed",
    [
        "lambda: jax.block_until_ready(f_jit(x))",
        "lambda: f_jit(x).block_until_ready()",
        "lambda: print(f_jit(x))",
    ],
)
def test_a_call_inside_what_a_harness_runs_is_run_by_it(handed):
    """``timeit.timeit(lambda: jax.block_until_ready(f_jit(x)), number=1)`` runs ``f_jit(x)`` as surely as
    ``lambda: f_jit(x)`` does: the wait around it changes nothing about the compile it leaves behind, so the second
    timing of the same call is warm (LB104 does not say 'no warm-up'). A harness that ran another jitted function
    inside its wait warms nothing."""
    harness = HEADER.replace("import time", "import time\nimport timeit")
    twice = f"t1 = timeit.timeit({handed}, number=1)\nt2 = timeit.timeit({handed}, number=1)\nprint(t1, t2)\n"

    def lb104_at(source: str) -> list[str]:
        return [d.message for d in lint_source(textwrap.dedent(source), "s.py") if d.code == "LB104"]

    assert lb103_lines(harness + twice) == []
    assert [m for m in lb104_at(harness + twice) if "no warm-up" in m] == []
    other = harness + "h_jit = jax.jit(h)\n" + f"t1 = timeit.timeit({handed.replace('f_jit', 'h_jit')}, number=1)\n"
    other += f"t2 = timeit.timeit({handed}, number=1)\nprint(t1, t2)\n"
    assert any("no warm-up" in m for m in lb104_at(other))


@pytest.mark.parametrize("handed", ["functools.partial(f_jit, x)", "lambda: f_jit(x)", "partial(f_jit, x)"])
@pytest.mark.parametrize("second", ["number=10", "number=1"])
def test_a_new_partial_or_lambda_of_the_same_jitted_call_is_warm_the_second_time(handed, second):
    """jit's compile cache is keyed on the jitted function and the arguments' shapes and dtypes, not on the
    wrapper handed to the harness: a ``functools.partial`` or lambda written out again at the second timing runs
    the same compiled program (quiet twin of the harness tests above; it holds on aea0196 too)."""
    harness = HEADER.replace("import time", "import functools\nfrom functools import partial\nimport time\nimport timeit")
    body = f"def main():\n    t1 = timeit.timeit({handed}, number=1)\n    t2 = timeit.timeit({handed}, {second})\n"
    body += "    print('compile', t1, 'run', t2)\n\nmain()\n"
    assert lb103_lines(harness + body) == []
    module = harness + f"t1 = timeit.timeit({handed}, number=1)\nt2 = timeit.timeit({handed}, {second})\nprint(t1, t2)\n"
    assert lb103_lines(module) == []


@pytest.mark.parametrize(
    ("handed", "copied_in_the_timing"),
    [
        ("functools.partial(f_jit, jnp.array([1.0, 2.0]))", False),  # built once, before the clock starts
        ("functools.partial(f_jit, n=jnp.array([1.0, 2.0]))", False),
        ("lambda: f_jit(jnp.array([1.0, 2.0]))", True),  # copied on every run
    ],
)
def test_the_arguments_a_partial_binds_are_set_up_not_timed(handed, copied_in_the_timing):
    """``timeit.timeit(partial(f, jnp.array(xs)), number=10)``: Python evaluates the partial's arguments when it
    builds it, before ``timeit`` reads its clock, so the host-to-device copy is not timed (no LB115 there); the same
    call in a lambda copies on every run."""
    harness = HEADER.replace("import time", "import functools\nimport time\nimport timeit")
    source = harness + f"print(timeit.timeit({handed}, number=10))\n"
    codes = {code for code, _, _ in found(source)}
    assert ("LB115" in codes) is copied_in_the_timing
    assert "LB102" in codes  # the timed call is still unwaited either way
