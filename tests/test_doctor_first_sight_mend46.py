"""What cases 526-533 showed at first sight, mended in the shared model (mend46).

- `_intent._docstring_lines`, read by `times_compilation_on_purpose`: the docstring of a def whose body a timing
  opens is the function's own word for what that timing measures, as a comment right above the def is
  (ChemEx-JAX's ``def timed(function, *args, repeat=50)`` documented as '(first call incl. compile, mean of
  ``repeat`` later calls)', whose body times the waited first call alone, then the waited mean: case 532's false
  LB103 x5). A docstring that says nothing of compiling keeps LB103.
- `_scalars.jax_scalar` and `reads_back_scalars`, read by LB115: a value the code shows is one number (the value of a
  ``jax.value_and_grad`` call, a gradient with respect to a scalar argument, a full reduction, ``jnp.array`` of a
  number or of an upper-case setting) printed or converted in straight-line code of a single timing is the read that
  waits for the figure, and a copy of a few bytes: no LB115 (AADC-Python's printed price and sensitivities, case
  531's false LB115 x14). An array printed there, or a scalar read on every step of a loop inside the timing, is
  still LB115.
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 532: a timing helper whose docstring says its first figure holds the compile ------------------------------------
TIMED_HELPER = '''
import {clock_module}
import jax
import jax.numpy as jnp
import numpy as np


def timed(function, *args, repeat=50):
    """{doc}"""
    start = {clock}()
    jax.block_until_ready(function(*args))
    first = {clock}() - start
    start = {clock}()
    for _ in range(repeat):
        jax.block_until_ready(function(*args))
    return first, ({clock}() - start) / repeat


def model(x):
    return jnp.tanh(x @ x.T).sum()


x0 = jnp.ones((64, 64))
forward = timed(jax.jit(model), x0, repeat=200)
{alias}
with_grad = timed(jax.jit(jax.grad(model)), x0, repeat=200)
print(forward, with_grad)
'''
_SAID = "(first call incl. compile, mean of ``repeat`` later calls) in seconds."


@pytest.mark.parametrize(
    ("clock_module", "clock", "doc", "alias"),
    [
        ("time", "time.perf_counter", _SAID, ""),  # as posted
        ("time", "time.time", "Returns (compile time, steady time).", ""),  # another clock, other words
        ("time as tm", "tm.perf_counter", _SAID, "timed_alias = timed"),  # aliased
    ],
)
def test_a_helper_whose_docstring_says_its_first_call_holds_the_compile_times_it_on_purpose(
        clock_module, clock, doc, alias):
    source = TIMED_HELPER.format(clock_module=clock_module, clock=clock, doc=doc, alias=alias)
    if alias:
        source = source.replace("with_grad = timed(", "with_grad = timed_alias(")
    found = codes(source)
    assert not lines(found, "LB103"), found


def test_a_helper_whose_docstring_says_so_in_notebook_cells():
    source = textwrap.dedent(TIMED_HELPER.format(clock_module="time", clock="time.perf_counter", doc=_SAID, alias=""))
    head, _, tail = source.partition("def model(x):")
    found = notebook_codes(head, "def model(x):" + tail)
    assert "LB103" not in {c for c, _, _ in found}, found


def test_a_helper_whose_docstring_names_no_compilation_still_times_the_compile():
    source = TIMED_HELPER.format(clock_module="time", clock="time.perf_counter",
                                 doc="Seconds per call, the mean of ``repeat`` calls.", alias="")
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "forward = timed("), line_of(source, "with_grad = timed(")}, found


# --- 531: printed scalars read back before the end read ------------------------------------------------------------
PRICER = """
import {clock_module}
import jax
import jax.numpy as jnp
{imports}
import settings


def get_price(spot, strike, vol, key):
    paths = spot * jnp.exp(vol * jax.random.normal(key, (1000, 50)))
    return jnp.mean(jnp.maximum(paths[:, -1] - strike, 0.0))


spot = jnp.array(settings.SPOT)
strike = jnp.array(100.0)
vol = {vol}
key = jax.random.PRNGKey(0)
price_and_grad = {vg}(get_price, argnums=(0, 1, 2))

start_time = {clock}()
price, grads = price_and_grad(spot, strike, vol, key)
print(f"--Price: {{price}}")
print(f"----Grad w.r.t. spot: {{grads[0]}}")
print(f"----Grad w.r.t. vol: {{grads[2]}}")
elapsed_time = {clock}() - start_time
print(f"--Total execution time: {{elapsed_time:.4f}}s")
"""


def pricer(clock_module="time", clock="time.time", imports="", vg="jax.value_and_grad",
           vol="jnp.array(settings.VOLATILITY)"):
    return PRICER.format(clock_module=clock_module, clock=clock, imports=imports, vg=vg, vol=vol)


@pytest.mark.parametrize(
    "source",
    [
        pricer(),  # as posted
        pricer(imports="from jax import value_and_grad as vg", vg="vg", vol="jnp.asarray(0.2)"),  # aliased
        pricer(clock_module="time as tm", clock="tm.perf_counter"),  # another clock
    ],
)
def test_printed_scalar_results_read_back_before_the_end_read_are_no_host_transfer(source):
    found = codes(source)
    assert not lines(found, "LB115"), found


def test_printed_scalar_results_in_a_helper_and_in_notebook_cells():
    source = textwrap.dedent(pricer())
    head, _, tail = source.partition("start_time = ")
    helper = head + "\n\ndef run():\n" + textwrap.indent("start_time = " + tail, "    ") + "\n\nrun()\n"
    assert not lines(codes(helper), "LB115"), codes(helper)
    found = notebook_codes(head, "start_time = " + tail)
    assert "LB115" not in {c for c, _, _ in found}, found


def test_a_printed_gradient_with_respect_to_an_array_is_still_a_host_copy():
    source = pricer(vol="jnp.ones(1000)")
    assert lines(codes(source), "LB115") == {line_of(source, "Grad w.r.t. vol")}


def test_a_scalar_printed_on_every_step_of_a_loop_inside_the_timing_is_still_a_host_copy():
    source = pricer().replace(
        'price, grads = price_and_grad(spot, strike, vol, key)\nprint(f"--Price: {price}")',
        'for _ in range(10):\n    price, grads = price_and_grad(spot, strike, vol, key)\n    print(f"--Price: {price}")')
    assert line_of(source, '    print(f"--Price') in lines(codes(source), "LB115")
