"""What cases 396-403 showed at first sight, mended in the shared model (mend35).

- `_regions` (`_Finder._overwritten_unread`, `_subtracted_later`): a clock pair whose two readings are both replaced
  by a later clock read into the same names before anything reads them, in code that does take intervals from those
  names later (Craftax's warm-up pair, ``t0``/``t1`` overwritten by the reported pair, case 398), is no timing: no
  LB105, LB102 or LB111 at the warm-up. Two pairs whose differences the snippet never writes (case 026) both stay.
- LB103 (`Facts.compiled_anew`): an eager ``lax.scan``/``fori_loop``/``while_loop`` handed a ``jax.jit(...)`` made in
  the call compiles again every time the statement runs, so a warm-up of the same statement warms nothing: LB103 at
  the timed statement (case 398:49, mend33's "a compile paid on every call is a compile timed"). A jitted step made
  once and warmed stays quiet; a fresh lambda stays LB111's alone (case 130).
- `_regions._carried_to_next_pass` and `_effects.unawaited_jax`'s run order: a start read that ends a loop's pass,
  subtracted by a statement above it on the next pass (jaxpt's per-interval training clock, case 401), times the rest
  of the pass and the next pass up to the subtraction: LB102 at the unwaited step, LB105 at the start read, no LB103
  (the first pass runs before the first read) and no LB104 (a figure per interval).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 398: a warm-up clock pair whose readings the reported pair overwrites ---------------------------------------------
WARM_UP_PAIR = """
import {clock_module}
import jax
import jax.numpy as jnp

def main():
    x = jnp.ones((1000, 1000))
    t0 = {clock}
    jnp.dot(x, x)
    t1 = {clock}

    t0 = {clock}
    jnp.dot(x, x)
    t1 = {clock}

    print(f"seconds: {{t1 - t0}}")

main()
"""


@pytest.mark.parametrize(
    ("clock_module", "clock"),
    [("time", "time.time()"), ("time", "time.perf_counter()"), ("time as tm", "tm.time()")],
)
def test_a_warm_up_pair_overwritten_by_the_reported_pair_is_no_timing(clock_module, clock):
    source = WARM_UP_PAIR.format(clock_module=clock_module, clock=clock)
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "jnp.dot(x, x)", 2)}
    if clock.endswith("time()"):
        assert lines(found, "LB105") == {line_of(source, "t0 =", 2)}


def test_a_warm_up_pair_at_module_level_is_no_timing():
    source = textwrap.dedent(WARM_UP_PAIR.format(clock_module="time", clock="time.time()")).replace(
        "def main():\n", "").replace("\n    ", "\n").replace("main()\n", "")
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "jnp.dot(x, x)", 2)}
    assert lines(found, "LB105") == {line_of(source, "t0 =", 2)}


def test_a_warm_up_pair_in_notebook_cells_is_no_timing():
    setup = """
    import time
    import jax.numpy as jnp
    x = jnp.ones((1000, 1000))
    """
    pairs = """
    t0 = time.time()
    jnp.dot(x, x)
    t1 = time.time()
    t0 = time.time()
    jnp.dot(x, x)
    t1 = time.time()
    print(t1 - t0)
    """
    found = notebook_codes(setup, pairs)
    assert {(c, cell, line) for c, cell, line in found if c in ("LB102", "LB105")} == {
        ("LB102", 2, 5), ("LB105", 2, 4)}


def test_two_pairs_whose_intervals_are_never_written_both_stay_timings():
    # case 026's shape: the snippet shows two timings and leaves both differences out
    source = """
    import time
    import jax.numpy as jnp
    x = jnp.ones((1000, 1000))
    start = time.time()
    jnp.dot(x, x)
    end = time.time()
    start = time.time()
    jnp.dot(x, x).block_until_ready()
    end = time.time()
    """
    found = codes(source)
    assert lines(found, "LB105") == {5, 8}
    assert lines(found, "LB102") == {6}


def test_a_first_pair_whose_end_reading_is_used_stays_a_timing():
    source = """
    import time
    import jax.numpy as jnp
    x = jnp.ones((1000, 1000))
    t0 = time.time()
    jnp.dot(x, x)
    t1 = time.time()
    first = t1
    t0 = time.time()
    jnp.dot(x, x)
    t1 = time.time()
    print(t1 - t0, first)
    """
    assert lines(codes(source), "LB102") == {6, 10}


# --- 398: an eager lax loop handed a jax.jit made in the timed statement compiles every time ---------------------------
FRESH_JIT_SCAN = """
import time
import jax
{imports}

def main(init):
    def step(carry, unused):
        return carry * 2.0, carry

    t0 = time.time()
    jax.block_until_ready({loop})
    t1 = time.time()

    t0 = time.time()
    jax.block_until_ready({loop})
    t1 = time.time()
    print(t1 - t0)

main(jax.numpy.ones(3))
"""


@pytest.mark.parametrize(
    ("imports", "loop"),
    [
        ("", "jax.lax.scan(jax.jit(step), init, None, length=8)"),
        ("from jax import lax, jit", "lax.scan(jit(step), init, None, length=8)"),
        ("from jax import lax\nfrom jax import jit as J", "lax.scan(J(step), init, None, length=8)"),
        ("", "jax.lax.fori_loop(0, 8, jax.jit(lambda i, c: c * 2.0), init)"),
    ],
)
def test_an_eager_loop_handed_a_fresh_jit_compiles_in_the_timing(imports, loop):
    source = FRESH_JIT_SCAN.format(imports=imports, loop=loop)
    assert line_of(source, "jax.block_until_ready(", 2) in lines(codes(source), "LB103")


def test_an_eager_loop_handed_a_fresh_jit_in_a_notebook_cell():
    setup = """
    import time
    import jax
    init = jax.numpy.ones(3)
    def step(carry, unused):
        return carry * 2.0, carry
    jax.block_until_ready(jax.lax.scan(jax.jit(step), init, None, length=8))
    """
    timed = """
    t0 = time.perf_counter()
    jax.block_until_ready(jax.lax.scan(jax.jit(step), init, None, length=8))
    print(time.perf_counter() - t0)
    """
    found = notebook_codes(setup, timed)
    assert ("LB103", 2, 2) in found


def test_an_eager_loop_handed_a_jit_made_once_and_warmed_is_quiet():
    source = FRESH_JIT_SCAN.format(imports="", loop="jax.lax.scan(jitted, init, None, length=8)").replace(
        "    t0 = time.time()\n", "    jitted = jax.jit(step)\n    t0 = time.time()\n", 1)
    assert lines(codes(source), "LB103") == set()


def test_an_eager_loop_handed_a_fresh_lambda_stays_lb111_alone():
    # case 130's reading: `lax.while_loop(lambda x: x < 0, jf, x)` is LB111, not LB103
    source = FRESH_JIT_SCAN.format(imports="", loop="jax.lax.while_loop(lambda c: c.sum() < 0, step_j, init)").replace(
        "    t0 = time.time()\n", "    step_j = jax.jit(lambda c: c * 2.0)\n    step_j(init)\n    t0 = time.time()\n", 1)
    found = codes(source)
    assert lines(found, "LB103") == set()
    assert lines(found, "LB111")


# --- 401: a per-interval clock read at the end of a pass and subtracted on the next ----------------------------------
INTERVAL_LOOP = """
import {clock_module}
import jax
import jax.numpy as jnp


@jax.jit
def train_step(params, batch):
    loss = jnp.sum(params * batch)
    return params - 0.1 * loss, loss

{opening}
    start = None
    {loop_head}
        batch = jnp.ones(10)
        params, loss = train_step(params, batch)
        if step % 100 == 0:
            if not start:
                start = {clock}
                iter_time = -1
            else:
                iter_time = ({clock} - start) / 100
            {read_loss}
            print(f"{{step}} loss {{loss:.4f}} time {{iter_time * 1000:.2f}}ms")
            start = {clock}
        {step_end}
{closing}
"""

SCRIPT = dict(opening="if True:\n    params = jnp.ones(10)\n    step = 0", loop_head="while step < 1000:",
              step_end="step += 1", closing="")
FUNCTION = dict(opening="def train(params):", loop_head="for step in range(1000):", step_end="pass",
                closing="train(jnp.ones(10))")


@pytest.mark.parametrize(
    ("clock_module", "clock", "shape"),
    [
        ("time", "time.time()", SCRIPT),
        ("time", "time.time()", FUNCTION),
        ("time as tm", "tm.time()", FUNCTION),
        ("time", "time.perf_counter()", SCRIPT),
    ],
)
def test_a_clock_carried_to_the_next_pass_times_the_step(clock_module, clock, shape):
    source = INTERVAL_LOOP.format(clock_module=clock_module, clock=clock, read_loss="loss = loss.item()", **shape)
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "params, loss = train_step")}
    if clock.endswith(".time()"):
        assert lines(found, "LB105") == {line_of(source, "start =", 3)}
    assert lines(found, "LB103") == lines(found, "LB104") == set()


def test_a_clock_carried_to_the_next_pass_after_a_wait_is_quiet():
    source = INTERVAL_LOOP.format(clock_module="time", clock="time.perf_counter()",
                                  read_loss="loss = loss.item()", **SCRIPT).replace(
        "        if step % 100 == 0:", "        loss.block_until_ready()\n        if step % 100 == 0:")
    assert codes(source) == set()


def test_a_clock_carried_to_the_next_pass_in_a_notebook_cell():
    setup = """
    import time
    import jax
    import jax.numpy as jnp
    @jax.jit
    def train_step(params, batch):
        return params * 0.9, jnp.sum(params * batch)
    params = jnp.ones(10)
    """
    loop = """
    start = None
    for step in range(1000):
        params, loss = train_step(params, jnp.ones(10))
        if step % 100 == 0:
            if start:
                print(time.time() - start, loss.item())
            start = time.time()
    """
    found = notebook_codes(setup, loop)
    assert {(c, cell, line) for c, cell, line in found if c in ("LB102", "LB105")} == {
        ("LB102", 2, 3), ("LB105", 2, 7)}


def test_a_start_read_before_the_loop_and_restarted_per_pass_is_read_as_before():
    # dm-haiku's transformer example (library corpus): `prev_time` is read before the loop, so that pair times the
    # figure; the restart inside the print branch is no second timing (no LB102 or LB105 at it)
    source = """
    import time
    import jax

    def main(update, state, data, train_dataset):
        prev_time = time.time()
        for step in range(1000):
            state, metrics = update(state, data)
            data = next(train_dataset)
            if step % 100 == 0:
                steps_per_sec = 100 / (time.time() - prev_time)
                prev_time = time.time()
                print({k: float(v) for k, v in metrics.items()})

    update = jax.jit(lambda s, d: (s + d, {"loss": s.sum()}))
    main(update, jax.numpy.ones(3), jax.numpy.ones(3), iter([]))
    """
    found = codes(source)
    assert lines(found, "LB105") == {line_of(source, "prev_time = time.time()")}
    assert lines(found, "LB102") == set()
