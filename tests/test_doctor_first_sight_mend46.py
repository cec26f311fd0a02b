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
- `_intent.host_input_timed_apart`, read by LB115: a NumPy array handed to a timed call whose device copy
  (``device_data, device_labels = jax.device_put((data, labels))``, both names kept) the program hands to the same
  callable in another timed call is the host-input figure timed on purpose beside the resident one (AP6YC's cvi
  benchmark, case 533's false LB115:71; the reading of an explicit transfer timed alone, 036 and 243). A device copy
  never timed, or ``x = device_put(x)`` replacing the host array (JAX's quickstart, 018), keeps LB115.
- LB114's `_mapped_as_its_vmapped_twin`, `_changes_nothing`, `_bound_first_each_pass` and `_selects_for_a_baseline`:
  an eager loop nest that hands a function, element by element (``segment = segments[k]``), to the function the
  file jits as ``jax.jit(jax.vmap(dist_fn))`` and times, dropping a value the function only returns, is the
  per-element baseline of the vmapped figure (mppic's triple loop, case 526's false LB114:53/57; the reading of 242,
  248 and mend41); the loops around it that only index the elements out are that map too. A plain jit as the twin,
  or the same input on every pass, keeps LB114 (`test_doctor_jit_comparisons`: a dropped value runs for what it
  changes).
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


# --- 533: the host-input figure timed apart, beside the device-resident one -----------------------------------------
RESIDENT_AND_HOST = """
from statistics import median
{clock_import}

import jax
import jax.numpy as jnp
import numpy as np
{imports}


def milliseconds(run, repeats):
    times = []
    for _ in range(repeats):
        start = {clock}()
        value = run()
        if hasattr(value, "block_until_ready"):
            value.block_until_ready()
        times.append(({clock}() - start) * 1000)
    return median(times)


def index(data, labels):
    return jnp.sum(data * labels[:, None])


rng = np.random.default_rng(318)
labels = np.arange(2000) % 24
data = rng.normal(size=(2000, 8))
{put}
jax.block_until_ready((device_data, device_labels))
compiled = jax.jit(index)
compiled(device_data, device_labels)


def resident():
    return compiled(device_data, device_labels)


resident_ms = milliseconds(resident, 5)
host_ms = milliseconds(lambda: compiled(data, labels), 5)
print(resident_ms, host_ms)
"""
_PUT_BOTH = "device_data, device_labels = jax.device_put((data, labels))"


def resident_and_host(clock_import="from time import perf_counter", clock="perf_counter", imports="", put=_PUT_BOTH):
    return RESIDENT_AND_HOST.format(clock_import=clock_import, clock=clock, imports=imports, put=put)


@pytest.mark.parametrize(
    "source",
    [
        resident_and_host(),  # as posted
        resident_and_host(imports="from jax import device_put as put",  # aliased, one array at a time
                          put="device_data = put(data)\ndevice_labels = put(labels)"),
        resident_and_host(clock_import="import time", clock="time.time"),  # another clock
    ],
)
def test_numpy_inputs_timed_beside_their_device_copies_time_the_copy_on_purpose(source):
    found = codes(source)
    assert not lines(found, "LB115"), found


def test_numpy_inputs_timed_beside_their_device_copies_in_notebook_cells():
    source = textwrap.dedent(resident_and_host())
    head, _, tail = source.partition("def resident():")
    found = notebook_codes(head, "def resident():" + tail)
    assert "LB115" not in {c for c, _, _ in found}, found


def test_numpy_inputs_whose_device_copies_are_never_timed_are_still_copied_per_call():
    source = resident_and_host().replace("resident_ms = milliseconds(resident, 5)", "resident_ms = resident()")
    assert lines(codes(source), "LB115") == {line_of(source, "host_ms = milliseconds(")}


def test_an_array_replaced_by_its_device_copy_keeps_no_host_twin():
    # JAX's quickstart (case 018): the NumPy timing, then `x = device_put(x)` and the same timing: LB115 at the first
    source = textwrap.dedent("""
        import numpy as np
        import jax.numpy as jnp
        from jax import device_put
        x = np.random.normal(size=(300, 300)).astype(np.float32)
        %timeit jnp.dot(x, x).block_until_ready()
        x = device_put(x)
        %timeit jnp.dot(x, x).block_until_ready()
        """)
    assert lines(codes(source, "bench.ipy"), "LB115") == {line_of(source, "%timeit jnp.dot")}


# --- 526: the per-element eager loop beside its jitted vmap ----------------------------------------------------------
PER_POINT = """
import {clock_module}
import jax
import jax.numpy as jnp
{imports}

key = jax.random.PRNGKey(0)
points = jax.random.normal(key, (200, 2))
segments = jax.random.normal(key, (20, 2))


def dist_fn(point, segment):
    return jnp.linalg.norm(point - segment)


vj_dist_fn = {twin}
tiled_points = jnp.repeat(points, 20, axis=0)
tiled_segments = jnp.tile(segments, (200, 1))

for r in range(5):
    tic = {clock}()
    d = vj_dist_fn(tiled_points, tiled_segments)
    d.block_until_ready()
    print("optimization time {{:0.6f}} sec".format({clock}() - tic))

for r in range(5):
    tic = {clock}()
    for i in range(200):
        point = points[i]
        for k in range(20):
            segment = segments[k]
            dist_fn(point, segment)
    print("optimization time {{:0.6f}} sec".format({clock}() - tic))
"""


def per_point(clock_module="time", clock="time.time", imports="", twin="jax.jit(jax.vmap(dist_fn))"):
    return PER_POINT.format(clock_module=clock_module, clock=clock, imports=imports, twin=twin)


@pytest.mark.parametrize(
    "source",
    [
        per_point(),  # as posted
        per_point(imports="from jax import jit as compile_, vmap as batch", twin="compile_(batch(dist_fn))"),  # aliased
        per_point(clock_module="time as tm", clock="tm.perf_counter"),  # another clock
    ],
)
def test_an_eager_per_element_loop_beside_its_jitted_vmap_is_the_baseline(source):
    found = codes(source)
    assert not lines(found, "LB114"), found


def test_an_eager_per_element_loop_in_a_helper_and_in_notebook_cells():
    source = textwrap.dedent(per_point())
    cut = source.rindex("for r in range(5):")
    head, tail = source[:cut], source[cut:]
    helper = head + "\ndef baseline():\n" + textwrap.indent(tail, "    ") + "\n\nbaseline()\n"
    assert not lines(codes(helper), "LB114"), codes(helper)
    found = notebook_codes(head, tail)
    assert "LB114" not in {c for c, _, _ in found}, found


def test_an_eager_loop_beside_a_plain_jit_or_on_the_same_input_each_pass_stays_op_by_op():
    plain = per_point(twin="jax.jit(dist_fn)").replace("vj_dist_fn(tiled_points, tiled_segments)",
                                                        "vj_dist_fn(points[0], segments[0])")
    assert lines(codes(plain), "LB114"), codes(plain)
    same = per_point().replace("dist_fn(point, segment)\n", "dist_fn(points[0], segments[0])\n")
    assert lines(codes(same), "LB114"), codes(same)
