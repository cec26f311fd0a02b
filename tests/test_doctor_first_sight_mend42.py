"""What cases 474-489 showed at first sight, mended in the shared model (mend42).

- `Facts.own_method`, read by `_iteration._one_operation`: a transform built inside a method of a class over
  ``self.name`` (``jax.vmap(self.forward_pass)``, ``jax.vmap(jax.value_and_grad(self.loss))``) transforms that
  class's method; when the method is jitted (``@partial(jax.jit, static_argnums=(0,))``), the transform batches or
  differentiates one compiled program, no program dispatched op by op (PytorchVsJax's ``Trainer.benchmark``, case
  481's false LB114:103/108). An un-jitted method so transformed still runs op by op.
- LB115's `_python_container`: a list comprehension of JAX arrays (``jnp.array([x[i] * jnp.pi for i in ...])``) is
  stacked on the device, no host walk and no copy; its per-element dispatch is the comprehension's LB114 at the same
  place (jax-academy's loop baseline, case 488's false LB115:17). A list of Python numbers still is.
- `_ipython_input.split_timeit_options` reads ``-o`` and ``-r``, `Magic` keeps them and the name ``res = %timeit -o``
  binds, and `_regions`: a ``%timeit -o -n N`` whose result is kept by name (bound by the magic, or ``res = _``
  right after it) and read only for its ``.best`` is calibrated, the best of its repeats leaving the first repeat's
  compile out (probml's notebook, case 487's false LB103:79/89; 148's reading). ``.average`` or ``-r 1`` still hold it.
- `_regions.entry_clock`, read by LB105: the clock read that starts a ``with`` block of a timer the file defines (the
  first clock call in its class's ``__enter__``, or before a ``@contextlib.contextmanager`` generator's ``yield``);
  a wall clock there is LB105 at that read, once however many blocks the timer times (pips-jax's ``Timer`` on
  ``time.time()``, case 475's missed LB105:42). A timer from a library keeps its clock out of the file: nothing.
- `levelbench._values.intent.lines_to_read`: a heading printed right above a timing (``print("jax jit
  compilation:")``, a string and nothing else) is read with the comments above it, as what the figure printed under
  it is: a first jitted call so headed is timed on purpose (pjs902's 'Intro to JAX', case 482's false LB103:64).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]

# --- 481: a vmap of a jitted method, built and timed in another method ---------------------------------------------
TRAINER = """
import jax
import jax.numpy as jnp
{imports}
from functools import partial


class Trainer:
    def __init__(self, w):
        self.w = w

    {decorator}
    def forward_pass(self, params, x):
        return jnp.tanh(x @ params) * self.w + jnp.sin(x).sum()

    {decorator}
    def loss(self, params, x):
        return jnp.mean(self.forward_pass(params, x) ** 2)

    def benchmark(self, params, x, R=100):
        forward = {vmap}(self.forward_pass, in_axes=(0, 0))
        grads = {vmap}({grad}(self.loss), in_axes=(0, 0))
        forward(params, x)
        grads(params, x)
        times = []
        for _ in range(R):
            start = {clock}
            out = forward(params, x).block_until_ready()
            out = grads(params, x)[0].block_until_ready()
            times.append({clock} - start)
        return times
"""
_STATIC = "@partial(jax.jit, static_argnums=(0,))"


@pytest.mark.parametrize(
    ("imports", "vmap", "grad", "clock", "decorator"),
    [
        ("from time import time", "jax.vmap", "jax.value_and_grad", "time()", _STATIC),  # as posted
        ("import time\nfrom jax import vmap as batch, grad", "batch", "grad", "time.perf_counter()", _STATIC),  # aliased
        ("import timeit", "jax.vmap", "jax.grad", "timeit.default_timer()", "@jax.jit"),  # another clock
    ],
)
def test_a_vmap_of_a_jitted_method_built_in_another_method_is_no_op_by_op_dispatch(imports, vmap, grad, clock,
                                                                                  decorator):
    source = TRAINER.format(imports=imports, vmap=vmap, grad=grad, clock=clock, decorator=decorator)
    found = codes(source)
    assert not lines(found, "LB114"), found


def test_a_vmap_of_a_jitted_method_in_notebook_cells_is_no_op_by_op_dispatch():
    source = TRAINER.format(imports="import time", vmap="jax.vmap", grad="jax.grad", clock="time.perf_counter()",
                            decorator=_STATIC)
    head, _, tail = source.partition("class Trainer:")
    found = notebook_codes(head, "class Trainer:" + tail)
    assert not {c for c, _, _ in found} & {"LB114"}, found


def test_a_vmap_of_an_unjitted_method_still_dispatches_op_by_op():
    source = TRAINER.format(imports="import time", vmap="jax.vmap", grad="jax.grad", clock="time.perf_counter()",
                            decorator="")
    found = codes(source)
    assert lines(found, "LB114"), found


# --- 488: a list of JAX arrays made into one array inside the timing --------------------------------------------
STACKED = """
import jax
{imports}

x = {jnp}.linspace(0, 1, 5_000)
{body}
"""


@pytest.mark.parametrize(
    ("imports", "jnp", "body"),
    [
        ("from jax import numpy as jnp", "jnp",  # as posted
         "%timeit jnp.array([x[i] * jnp.pi for i in range(x.size)]).block_until_ready()"),
        ("import jax.numpy as xp", "xp",  # aliased, another converter
         "%timeit xp.asarray([xp.sin(x[i]) for i in range(x.size)]).block_until_ready()"),
        ("import jax.numpy as jnp\nimport time", "jnp",  # another clock
         "t0 = time.perf_counter()\nfor _ in range(10):\n    jnp.array([x[i] * 2 for i in range(x.size)]).block_until_ready()\n"
         "print(time.perf_counter() - t0)"),
    ],
)
def test_a_list_of_jax_arrays_made_into_one_array_is_no_host_transfer(imports, jnp, body):
    found = codes(STACKED.format(imports=imports, jnp=jnp, body=body), "bench.ipy" if "%" in body else "bench.py")
    assert not lines(found, "LB115"), found


def test_a_list_of_jax_arrays_made_into_one_array_in_notebook_cells_is_no_host_transfer():
    found = notebook_codes("import jax\nfrom jax import numpy as jnp\nx = jnp.linspace(0, 1, 5_000)",
                           "%timeit jnp.array([x[i] * jnp.pi for i in range(x.size)]).block_until_ready()")
    assert "LB115" not in {c for c, _, _ in found}, found


def test_a_list_of_python_numbers_made_into_one_array_is_still_a_host_walk():
    body = "%timeit jnp.array([float(i) * 2.0 for i in range(x.size)]).block_until_ready()"
    found = codes(STACKED.format(imports="from jax import numpy as jnp", jnp="jnp", body=body), "bench.ipy")
    assert lines(found, "LB115"), found


# --- 487: `%timeit -o -n N` whose kept figure is the best of its repeats ----------------------------------------
BEST_OF = """
import jax
import jax.numpy as jnp
{imports}

def jf(x=None):
    x = jnp.ones((1000, 1000), dtype=jnp.float32)
    return jnp.dot(x, x.T)

f_gpu = {jit}(jf)
number_of_loops = 100
{timing}
print(time_jgpu)
"""
_NEXT = "%timeit -o -n $number_of_loops f_gpu().block_until_ready()\nres = _\ntime_jgpu = res.{field}"
_BOUND = "res = %timeit -o -n100 -r5 f_gpu().block_until_ready()\ntime_jgpu = res.{field}"


@pytest.mark.parametrize(
    ("imports", "jit", "timing"),
    [
        ("", "jax.jit", _NEXT),  # as posted
        ("from jax import jit as compile_", "compile_", _NEXT),  # aliased
        ("", "jax.jit", _BOUND),  # the result bound by the magic's own assignment
    ],
)
def test_a_best_of_figure_of_timeit_n_leaves_the_first_repeats_compile_out(imports, jit, timing):
    source = BEST_OF.format(imports=imports, jit=jit, timing=timing.format(field="best"))
    found = codes(source, "bench.ipy")
    assert not lines(found, "LB103"), found


def test_a_best_of_figure_of_timeit_n_in_notebook_cells_leaves_the_compile_out():
    head, _, _ = BEST_OF.partition("{timing}")
    found = notebook_codes(head.format(imports="", jit="jax.jit"),
                           "%timeit -o -n $number_of_loops f_gpu().block_until_ready()",
                           "res = _\ntime_jgpu = res.best\nprint(time_jgpu)")
    assert "LB103" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    "timing",
    [
        _NEXT.format(field="average"),  # the mean of the repeats holds the first one's compile
        "res = %timeit -o -n100 -r1 f_gpu().block_until_ready()\ntime_jgpu = res.best",  # one repeat: no other
    ],
)
def test_a_timeit_n_figure_that_is_no_best_of_still_holds_the_compile(timing):
    found = codes(BEST_OF.format(imports="", jit="jax.jit", timing=timing), "bench.ipy")
    assert lines(found, "LB103"), found


# --- 475: a timer class of the file's own, reading the wall clock in `__enter__` --------------------------------
TIMER_CLASS = """
import jax
import jax.numpy as jnp
{imports}


class Timer:
    def __enter__(self):
        self._start = {clock}
        return self

    def __exit__(self, *_unused):
        self.elapsed = {clock} - self._start


@jax.jit
def forward(x):
    return jnp.tanh(x) @ x

x = jnp.ones((256, 256))
forward(x).block_until_ready()
for _ in range(20):
    with Timer() as t:
        jax.block_until_ready(forward(x))
    print(t.elapsed)
with Timer() as t:
    jax.block_until_ready(forward(x + 1))
print(t.elapsed)
"""
_GENERATOR = """
import contextlib
import jax
import jax.numpy as jnp
import time


@contextlib.contextmanager
def timed(label):
    start = time.time()
    yield
    print(label, time.time() - start)


@jax.jit
def forward(x):
    return jnp.tanh(x) @ x

x = jnp.ones((256, 256))
forward(x).block_until_ready()
for _ in range(20):
    with timed("forward"):
        jax.block_until_ready(forward(x))
"""


@pytest.mark.parametrize(
    ("imports", "clock"),
    [
        ("import time", "time.time()"),  # as posted
        ("from time import time as now", "now()"),  # aliased
        ("import datetime", "datetime.datetime.now()"),  # another wall clock
    ],
)
def test_a_timer_class_reading_the_wall_clock_in_enter_is_lb105_once(imports, clock):
    source = TIMER_CLASS.format(imports=imports, clock=clock)
    found = codes(source)
    assert lines(found, "LB105") == {line_of(source, "self._start =")}, found


def test_a_contextmanager_timer_reading_the_wall_clock_before_its_yield_is_lb105():
    found = codes(_GENERATOR)
    assert lines(found, "LB105") == {line_of(_GENERATOR, "start = time.time()")}, found


def test_a_timer_class_reading_the_wall_clock_in_notebook_cells_is_lb105():
    source = TIMER_CLASS.format(imports="import time", clock="time.time()")
    head, _, tail = source.partition("@jax.jit")
    found = notebook_codes(head, "@jax.jit" + tail)
    assert "LB105" in {c for c, _, _ in found}, found


def test_a_timer_class_on_a_steady_clock_is_no_lb105():
    source = TIMER_CLASS.format(imports="import time", clock="time.perf_counter()")
    assert not lines(codes(source), "LB105")


# --- 482: a heading printed right above a first jitted call's timing names it the compile -----------------------
HEADED = """
import jax
import jax.numpy as jnp
{imports}


def dispersion(rs, sigma0, a):
    return jnp.sqrt(sigma0**2 / jnp.sqrt(1 + rs**2 / a**2))


rs = jnp.linspace(0, 1000, 1_000_000)
dispersion_jit = {jit}(dispersion)

# The first time we evaluate the function, it will be compiled
print({heading!r})
{timing}
print()
%timeit dispersion_jit(rs, 15, 200).block_until_ready()
"""
_TIME = "%time _ = dispersion_jit(rs, 15, 200).block_until_ready()"
_PAIR_TIMED = ("t0 = time.perf_counter()\ndispersion_jit(rs, 15, 200).block_until_ready()\n"
               "print(time.perf_counter() - t0)")


@pytest.mark.parametrize(
    ("imports", "jit", "heading", "timing"),
    [
        ("", "jax.jit", "jax jit compilation:", _TIME),  # as posted
        ("from jax import jit as compile_", "compile_", "compile time:", _TIME),  # aliased
        ("import time", "jax.jit", "jax jit compilation:", _PAIR_TIMED),  # another clock
    ],
)
def test_a_first_jitted_call_under_a_printed_compilation_heading_is_timed_on_purpose(imports, jit, heading, timing):
    source = HEADED.format(imports=imports, jit=jit, heading=heading, timing=timing)
    found = codes(source, "bench.ipy")
    assert not lines(found, "LB103"), found


def test_a_first_jitted_call_under_a_printed_compilation_heading_in_notebook_cells_is_timed_on_purpose():
    source = HEADED.format(imports="", jit="jax.jit", heading="jax jit compilation:", timing=_TIME)
    head, _, tail = source.partition("# The first time")
    found = notebook_codes(head, "print('jax jit compilation:')\n" + _TIME, "%timeit dispersion_jit(rs, 15, 200)")
    assert "LB103" not in {c for c, _, _ in found}, found


def test_a_first_jitted_call_under_a_heading_that_names_no_compilation_still_times_the_compile():
    source = HEADED.format(imports="", jit="jax.jit", heading="jax jitted:", timing=_TIME).replace(
        "# The first time we evaluate the function, it will be compiled\n", "")
    assert lines(codes(source, "bench.ipy"), "LB103")
