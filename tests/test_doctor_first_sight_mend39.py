"""What cases 428-459 showed at first sight, mended in the shared model (mend39).

- `Facts.engine_of` and `Facts.built_with_engine` (`_facts`), read by `Context.does_framework_work`: an engine keyword
  (``backend=``, ``sampler=``, ``engine=``) picks the framework a library computes with whether its string is written
  in the call or chosen once in the file and handed by name (``backend = 'numpy'``, then ``backend=backend``), and an
  object built with one computes in that framework: its method calls are framework work (TensorNetwork's
  ``mps = tn.mps.FiniteMPS(tensors, backend=backend)`` then ``mps.position(N - 1)`` timed with ``time.time()``,
  case 456).
- `Facts.keras_on_jax` and `Facts.keras_model_method` (`_facts`), read by `_effects.pending_jax` and
  `Context.does_framework_work`: Keras 3 computes with the backend chosen once for the process, so a file that sets
  ``KERAS_BACKEND`` to ``"jax"`` (``os.environ[...]``, ``setdefault``, ``keras.config.set_backend``) or compares the
  backend it reads back with ``"jax"`` runs its Keras models on JAX: ``llm(ids)`` returns JAX arrays as dispatched.
  `_effects.WAIT_FUNCTIONS` no longer holds ``jax.effects_barrier()``, which waits for side effects, not results
  (Keras's ``benchmarks/quick_time.py``, case 453).
- `_effects._waiting_callables`: a local function handed to a timing helper by name (``bench(fn, x, sync=sync)``)
  is a wait when its body waits (``out.block_until_ready()``) or synchronizes CUDA, and every call of the helper
  hands one: the helper's ``if sync: sync(out)`` then waits for the timed call (Keras's ``benchmarks/bench.py``,
  case 452's false LB102).
- `_regions.reported_at`: a name handed on as one element of a tuple or list beside other values (``return jit_time,
  run_time``) does not report this figure alone: the other figure's name there says nothing of it, so the 'run_time'
  pair after a compile timed on purpose is one sample (MJX's ``testspeed.py``, case 455's missed LB104).
- `_regions._swept_by_callers`: a helper whose every call sits in a loop over settings written out one by one (``for
  device in [cpu, gpu]: test_backend(device)``) and hands it the loop variable is swept as over a grid: its clock pair
  takes one sample per setting (HPCmAI's ``cpu_vs_gpu_scaling.py``, case 436's missed LB104).
- `Facts.callee_values`: ``jax.block_until_ready(x)`` returns ``x``, so a name bound to
  ``jax.block_until_ready(jax.jit(jax.vmap(f)).lower(x).compile())`` holds the executable compiled ahead of time, not
  an un-jitted transform (Octax's ``measure_time.py``, case 443's false LB114).
- `_iteration.harness_calls_running_once`, read by LB104: a ``timeit`` harness whose counts are parameters of its
  helper (``timeit.repeat(bench, repeat=repeat, number=number)``) times one run at a call that gives every count 1
  (``time_it_measure(bench, repeat=1, number=1)``, Octax's ``--measure_memory`` mode, case 443's missed LB104).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 456: an object built by a library with its backend chosen once in the file ----------------------------------
SWEEPS = """
{imports}
import numpy as np

{setting}
tensors = [np.random.rand(1, 2, 8)] + [np.random.rand(8, 2, 8) for _ in range(6)] + [np.random.rand(8, 2, 1)]
{build}
times = []
for n in range(10):
    t1 = {clock}
    {method}
    times.append({clock} - t1)
print(np.average(times))
"""
_TN = "import tensornetwork as tn\nimport time"


@pytest.mark.parametrize(
    ("imports", "setting", "build", "method", "clock"),
    [
        (_TN, "backend = 'numpy'  # 'jax', 'tensorflow', 'pytorch'",
         "mps = tn.mps.FiniteMPS(tensors, center_position=0, backend=backend)", "mps.position(7)", "time.time()"),
        (_TN, "backend = 'jax'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)", "mps.position(7)", "time.time()"),
        (_TN, "", "mps = tn.mps.FiniteMPS(tensors, backend='jax')", "mps.position(7)", "time.time()"),  # written in
        ("from tensornetwork.matrixproductstates.finite_mps import FiniteMPS\nfrom time import time", "BACKEND = 'pytorch'",
         "chain = FiniteMPS(tensors, backend=BACKEND)", "chain.canonicalize()", "time()"),  # imported class, alias
        ("import tensornetwork as tn\nimport time as tm", "kind = 'jax'",
         "def make(ts):\n    return tn.FiniteMPS(ts, backend=kind)\nmps = make(tensors)", "mps.position(0)",
         "tm.time()"),  # built in a helper
    ],
)
def test_a_method_of_an_object_built_with_a_framework_backend_is_timed_on_the_wall_clock(
    imports, setting, build, method, clock
):
    source = SWEEPS.format(imports=imports, setting=setting, build=build, method=method, clock=clock)
    found = codes(source)
    assert ("LB105", line_of(source, "    t1 = ")) in found, found


def test_a_backend_chosen_once_in_notebook_cells_is_found():
    found = notebook_codes(
        "import tensornetwork as tn\nimport numpy as np\nimport time\nbackend = 'numpy'",
        "mps = tn.mps.FiniteMPS([np.ones((1, 2, 1))], backend=backend)",
        "t1 = time.time()\nmps.position(0)\nprint(time.time() - t1)",
    )
    assert ("LB105", 3, 1) in found, found


@pytest.mark.parametrize(
    ("setting", "build"),
    [
        ("backend = 'tensorflow'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)"),  # a framework not read here
        ("backend = 'numpy' if fast else 'jax'", "mps = tn.mps.FiniteMPS(tensors, backend=backend)"),  # not one value
        ("backend = 'numpy'", "mps = tn.mps.FiniteMPS(tensors, label=backend)"),  # a keyword that picks no engine
        ("backend = 'numpy'", "mps = tn.mps.FiniteMPS(tensors)"),  # the setting handed to nothing
    ],
)
def test_an_object_whose_backend_is_not_read_as_a_framework_stays_unknown(setting, build):
    source = SWEEPS.format(imports=_TN, setting=setting, build=build, method="mps.position(7)", clock="time.time()")
    assert "LB105" not in {c for c, _ in codes(source)}


def test_a_backend_handed_by_a_name_bound_to_two_engines_is_unknown():
    source = SWEEPS.format(imports=_TN, setting="backend = 'numpy'\nbackend = 'pymc'",
                           build="mps = tn.mps.FiniteMPS(tensors, backend=backend)", method="mps.position(7)",
                           clock="time.time()")
    assert "LB105" not in {c for c, _ in codes(source)}


# --- 453: a Keras model on the JAX backend, chosen once for the process --------------------------------------------
FORWARDS = """
import os
{imports}
import numpy as np
{setting}
import keras
from keras import layers

inp = keras.Input((None,), dtype="int32")
x = layers.Embedding(64, 16)(inp)
{model}
ids = np.ones((4, 8), dtype="int32")

def sync():
    {wait}

for _ in range(30):
    {call}
sync()

t0 = {clock}
for _ in range(100):
    {call}
sync()
print(({clock} - t0) / 100)
"""
_READ = 'BACKEND = os.environ.get("KERAS_BACKEND", "torch")'
_BRANCHED = 'if BACKEND == "jax":\n        import jax\n        jax.effects_barrier()'


@pytest.mark.parametrize(
    ("imports", "setting", "model", "call", "wait", "clock"),
    [
        ("import time", _READ, "llm = keras.Model(inp, layers.Dense(64)(x))", "llm(ids, training=False)", _BRANCHED,
         "time.perf_counter()"),  # the backend read back and branched on, as posted
        ("import time", 'os.environ["KERAS_BACKEND"] = "jax"', "llm = keras.Model(inp, layers.Dense(64)(x))",
         "llm(ids, training=False)", "import jax\n    jax.effects_barrier()", "time.perf_counter()"),  # set once
        ("from time import perf_counter", 'os.environ.setdefault("KERAS_BACKEND", "jax")',
         "net = keras.Sequential([layers.Dense(8)])", "net(ids)", "pass", "perf_counter()"),  # setdefault, no wait
        ("import time as t", "", "m = keras.Model(inp, layers.Dense(64)(x))", "m(ids)",
         'if keras.config.backend() == "jax":\n        import jax\n        jax.effects_barrier()',
         "t.perf_counter()"),  # Keras's own reading of its backend
        ("import time", "import keras as K\nK.config.set_backend('jax')",
         "def build():\n    return keras.Model(inp, layers.Dense(64)(x))\nmodel = build()", "model(ids)", "pass",
         "time.perf_counter()"),  # set by Keras's config call, built in a helper
    ],
)
def test_a_keras_model_on_jax_is_dispatched_and_effects_barrier_waits_for_none_of_it(
    imports, setting, model, call, wait, clock
):
    source = FORWARDS.format(imports=imports, setting=setting, model=model, call=call, wait=wait, clock=clock)
    found = codes(source)
    assert ("LB102", line_of(source, f"    {call}", 2)) in found, found


def test_a_keras_model_on_jax_in_notebook_cells_is_found():
    found = notebook_codes(
        "import os\nos.environ['KERAS_BACKEND'] = 'jax'\nimport keras\nimport numpy as np\nimport time",
        "model = keras.Sequential([keras.layers.Dense(8)])\nx = np.ones((4, 8))\nmodel(x)",
        "t0 = time.perf_counter()\nfor _ in range(10):\n    y = model(x)\nprint(time.perf_counter() - t0)",
    )
    assert ("LB102", 3, 3) in found, found


@pytest.mark.parametrize(
    ("setting", "wait"),
    [
        (_READ, 'if BACKEND == "torch":\n        import torch\n        torch.mps.synchronize()'),  # torch named only
        ('os.environ["KERAS_BACKEND"] = "tensorflow"', "pass"),  # another backend set
        ("", "pass"),  # no backend chosen in the file: unknown stays unknown
    ],
)
def test_a_keras_model_on_a_backend_not_read_as_jax_stays_unknown(setting, wait):
    source = FORWARDS.format(imports="import time", setting=setting, model="llm = keras.Model(inp, layers.Dense(64)(x))",
                             call="llm(ids, training=False)", wait=wait, clock="time.perf_counter()")
    assert "LB102" not in {c for c, _ in codes(source)}


def test_a_waited_keras_forward_on_jax_is_quiet():
    source = FORWARDS.format(imports="import time", setting='os.environ["KERAS_BACKEND"] = "jax"',
                             model="llm = keras.Model(inp, layers.Dense(64)(x))",
                             call="out = llm(ids, training=False)", wait="pass", clock="time.perf_counter()")
    source = source.replace("sync()\nprint", "out.block_until_ready()\nprint")
    assert "LB102" not in {c for c, _ in codes(source)}


@pytest.mark.parametrize("barrier", ["jax.effects_barrier()", "effects_barrier()"])
def test_effects_barrier_after_a_jitted_loop_waits_for_no_result(barrier):
    source = f"""
    import time
    import jax
    import jax.numpy as jnp
    from jax import effects_barrier

    f = jax.jit(lambda x: x @ x)
    x = jnp.ones((256, 256))
    f(x).block_until_ready()
    t0 = time.perf_counter()
    for _ in range(10):
        y = f(x)
    {barrier}
    print(time.perf_counter() - t0)
    """
    assert ("LB102", line_of(source, "y = f(x)")) in codes(source)


# --- 452: a timing helper that waits through the function its callers hand it -------------------------------------
BENCH = """
{imports}
import jax
import jax.numpy as jnp

def bench(fn, *args, {param}=None):
    for _ in range(5):
        out = fn(*args)
    times = []
    for _ in range(50):
        t0 = {clock}
        out = fn(*args)
        if {param}:
            {param}(out)
        times.append({clock} - t0)
    return sorted(times)[25]

def run():
{waiter}

    f = jax.jit(lambda x: x * 2)
    x = jnp.ones((64, 64))
    bench(f, x, {param}={handed})
{more}
run()
"""


def bench_source(waiter: str, handed: str, param: str = "sync", imports: str = "import time",
                 clock: str = "time.perf_counter()", more: str = "") -> str:
    """The helper and a ``run()`` that defines ``waiter`` (nested, as Keras's ``bench.py`` does, so no
    module-level function of the same name stands in for the parameter) and hands it on."""
    return BENCH.format(imports=imports, param=param, waiter=textwrap.indent(waiter, "    "), handed=handed,
                        clock=clock, more=textwrap.indent(more, "    "))


@pytest.mark.parametrize(
    ("imports", "param", "waiter", "handed", "clock"),
    [
        ("import time", "sync", "def sync(out):\n    out.block_until_ready()", "sync", "time.perf_counter()"),
        ("import time", "sync", "def sync(out):\n    if hasattr(out, 'block_until_ready'):\n        out.block_until_ready()",
         "sync", "time.perf_counter()"),  # as posted
        ("from time import perf_counter", "wait", "def finish(y):\n    jax.block_until_ready(y)", "finish",
         "perf_counter()"),  # another name, the function form
        ("import time as t", "sync", "def host(y):\n    return float(y.sum())", "host", "t.monotonic()"),  # a host read
    ],
)
def test_a_local_function_handed_as_the_wait_waits_for_the_timed_call(imports, param, waiter, handed, clock):
    source = bench_source(waiter, handed, param=param, imports=imports, clock=clock)
    assert "LB102" not in {c for c, _ in codes(source)}


def test_a_torch_synchronize_handed_beside_a_jax_wait_still_waits():
    waiter = "def sync(out):\n    out.block_until_ready()\n\ndef cuda_sync(_=None):\n    import torch\n    torch.cuda.synchronize()"
    source = bench_source(waiter, "sync", more="bench(f, x, sync=cuda_sync)")
    assert "LB102" not in {c for c, _ in codes(source)}


@pytest.mark.parametrize(
    "waiter", ["def sync(out):\n    return out", "def sync(out):\n    jax.effects_barrier()"],  # waits for no result
)
def test_a_handed_function_that_waits_for_nothing_leaves_the_call_unwaited(waiter):
    source = bench_source(waiter, "sync")
    assert ("LB102", line_of(source, "out = fn(*args)", 2)) in codes(source)


def test_a_helper_handed_no_wait_at_one_call_site_leaves_it_unwaited():
    source = bench_source("def sync(out):\n    out.block_until_ready()", "sync", more="bench(f, jnp.ones(3))")
    assert ("LB102", line_of(source, "out = fn(*args)", 2)) in codes(source)


# --- 455: a run timed once right after a compile timed on purpose, both figures returned together -----------------
MEASURE = """
{imports}
import jax
import jax.numpy as jnp

def _measure(fn, *args):
    beg = {clock}
    compiled_fn = fn.lower(*args).compile()
    end = {clock}
    jit_time = end - beg

    beg = {clock}
    result = compiled_fn(*args)
    jax.block_until_ready(result)
    end = {clock}
    run_time = end - beg

    return {returned}

def main():
    f = jax.jit(lambda x: x * 2)
    jit_time, run_time = _measure(f, jnp.ones(8))
    print(f"Total JIT time: {{jit_time:.2f}} s, total simulation time: {{run_time:.2f}} s")

main()
"""


@pytest.mark.parametrize(
    ("imports", "clock", "returned"),
    [
        ("import time", "time.perf_counter()", "jit_time, run_time"),
        ("from time import perf_counter as now", "now()", "[jit_time, run_time]"),  # aliased clock, a list
        ("import time as t", "t.monotonic()", "(jit_time, run_time)"),  # another clock
    ],
)
def test_one_run_after_a_compile_timed_on_purpose_is_one_sample(imports, clock, returned):
    source = MEASURE.format(imports=imports, clock=clock, returned=returned)
    found = codes(source)
    assert ("LB104", line_of(source, "result = compiled_fn(*args)")) in found, found
    assert not {c for c, _ in found} & {"LB102", "LB103"}, found  # waited; the compile is its own figure, on purpose


def test_the_compile_timed_on_purpose_stays_quiet():
    found = codes(MEASURE.format(imports="import time", clock="time.perf_counter()", returned="jit_time, run_time"))
    assert line_of(MEASURE.format(imports="import time", clock="time.perf_counter()", returned="jit_time, run_time"),
                   "compiled_fn = fn.lower") not in {line for _, line in found}, found


def test_the_run_figure_kept_under_a_compile_name_alone_is_still_read_as_compilation():
    source = MEASURE.format(imports="import time", clock="time.perf_counter()", returned="run_time").replace(
        "    return run_time", "    compile_time = run_time\n    return compile_time")
    assert "LB104" not in {c for c, _ in codes(source)}  # its own name says compile: as before


def test_a_run_after_a_compile_in_notebook_cells_is_one_sample():
    found = notebook_codes(
        "import time\nimport jax\nimport jax.numpy as jnp\nf = jax.jit(lambda x: x * 2)\nx = jnp.ones(8)",
        "def measure(fn, x):\n    beg = time.perf_counter()\n    c = fn.lower(x).compile()\n    jit_time = time.perf_counter() - beg\n"
        "    beg = time.perf_counter()\n    jax.block_until_ready(c(x))\n    run_time = time.perf_counter() - beg\n"
        "    return jit_time, run_time",
        "print(measure(f, x))",
    )
    assert ("LB104", 2, 5) in found or ("LB104", 2, 6) in found, found


# --- 436: a helper timed once per setting its caller writes out ---------------------------------------------------
PER_DEVICE = """
{imports}
import jax
import jax.numpy as jnp

def {name}(device):
    with jax.default_device(device):
        x = jnp.linspace(0, 1, 10**6)
        f_jit = jax.jit(lambda x: jnp.sin(x) + jnp.exp(x))
        t0 = {clock}
        _ = f_jit(x).block_until_ready()
        return {clock} - t0

for device in {devices}:
    if device:
        print(device.platform, {name}(device))
"""
_DEVICES = '[jax.devices("cpu")[0], jax.devices("gpu")[0] if jax.devices("gpu") else None]'


@pytest.mark.parametrize(
    ("imports", "name", "clock", "devices"),
    [
        ("import time", "test_backend", "time.time()", _DEVICES),  # as posted
        ("from time import perf_counter", "timed_on", "perf_counter()", _DEVICES),  # another clock and name
        ("import time as tm", "run", "tm.monotonic()", '(jax.devices("cpu")[0], jax.devices("tpu")[0])'),  # a tuple
        ("import time", "bench", "time.perf_counter()", "DEVICES"),  # a name bound once to the list
    ],
)
def test_one_cold_run_per_device_its_caller_writes_out_is_one_sample_each(imports, name, clock, devices):
    source = PER_DEVICE.format(imports=imports, name=name, clock=clock, devices=devices)
    if devices == "DEVICES":
        source = source.replace("\nfor device in", f"\nDEVICES = {_DEVICES}\nfor device in")
    found = codes(source)
    assert ("LB104", line_of(source, "_ = f_jit(x)")) in found, found


def test_one_run_per_device_in_notebook_cells_is_one_sample_each():
    found = notebook_codes(
        "import time\nimport jax\nimport jax.numpy as jnp",
        "def test_backend(device):\n    with jax.default_device(device):\n        x = jnp.ones(8)\n"
        "        t0 = time.perf_counter()\n        jnp.sin(x).block_until_ready()\n        return time.perf_counter() - t0",
        "for device in [jax.devices('cpu')[0], jax.devices('gpu')[0]]:\n    print(test_backend(device))",
    )
    assert ("LB104", 2, 5) in found, found


@pytest.mark.parametrize(
    "devices",
    ["jax.devices()", "[jax.devices('cpu')[0]] * 3", "[d, d]"],  # values read elsewhere, a repeat, the same twice
)
def test_a_loop_over_values_not_written_out_one_by_one_stays_unknown(devices):
    source = PER_DEVICE.format(imports="import time", name="test_backend", clock="time.perf_counter()", devices=devices)
    assert "LB104" not in {c for c, _ in codes(source)}


# --- 443: an executable compiled ahead of time, bound through a wait ----------------------------------------------
AOT = """
{imports}
import jax
import jax.numpy as jnp

@jax.jit
def rollout(x):
    return jnp.sin(x)

xs = jnp.ones((4, 3))
compiled = {bound}

def bench():
    return jax.block_until_ready(compiled(xs))

bench()
print({harness})
"""


@pytest.mark.parametrize(
    ("imports", "bound", "harness"),
    [
        ("import timeit", "jax.block_until_ready(jax.jit(jax.vmap(rollout)).lower(xs).compile())",
         "min(timeit.repeat(bench, repeat=50, number=1))"),  # as posted
        ("import timeit as ti", "jax.block_until_ready(jax.jit(jax.vmap(rollout)).lower(xs).compile())",
         "ti.timeit(bench, number=100)"),  # aliased, another harness
        ("import timeit\nfrom jax import block_until_ready as wait", "wait(jax.jit(jax.vmap(rollout)).lower(xs).compile())",
         "timeit.repeat(bench, repeat=5, number=10)"),  # the wait imported by name
    ],
)
def test_an_aot_executable_bound_through_a_wait_is_no_eager_transform(imports, bound, harness):
    assert "LB114" not in {c for c, _ in codes(AOT.format(imports=imports, bound=bound, harness=harness))}


def test_an_eager_transform_bound_through_a_wait_is_still_op_by_op():
    source = AOT.format(imports="import timeit", bound="jax.block_until_ready(jax.vmap(rollout.__wrapped__))",
                        harness="timeit.timeit(bench, number=100)")
    source = source.replace("@jax.jit\n", "")
    source = source.replace("jax.vmap(rollout.__wrapped__)", "jax.vmap(rollout)")
    assert "LB114" in {c for c, _ in codes(source)}


# --- 443: a timeit helper one of whose calls makes it time one run --------------------------------------------------
ONE_MODE = """
{imports}
import jax
import jax.numpy as jnp

def {helper}(bench, repeat=10, number=3):
    times = {harness}(bench, repeat=repeat, number=number)
    return jnp.array(times) / number

f = jax.jit(lambda x: x * 2)
x = jnp.ones(8)

def bench():
    return jax.block_until_ready(f(x))

bench()
if fast:
    times = {helper}(bench, {one})
else:
    times = {helper}(bench, repeat=50, number=1)
"""


@pytest.mark.parametrize(
    ("imports", "helper", "harness", "one"),
    [
        ("import timeit", "time_it_measure", "timeit.repeat", "repeat=1, number=1"),  # as posted
        ("import timeit as ti", "measure", "ti.repeat", "1, 1"),  # aliased, by position
        ("from timeit import repeat", "measure", "repeat", "number=1, repeat=1"),  # imported by name
    ],
)
def test_a_harness_helper_called_to_time_one_run_is_one_sample(imports, helper, harness, one):
    source = ONE_MODE.format(imports=imports, helper=helper, harness=harness, one=one)
    assert ("LB104", line_of(source, f"times = {harness}(")) in codes(source)


@pytest.mark.parametrize(
    "one", ["repeat=1, number=5", "repeat=5, number=1", "repeat=1"],  # more than one run: number defaults to 3
)
def test_a_harness_helper_that_times_several_runs_at_every_call_is_quiet(one):
    source = ONE_MODE.format(imports="import timeit", helper="time_it_measure", harness="timeit.repeat", one=one)
    assert "LB104" not in {c for c, _ in codes(source)}


def test_a_default_timer_pair_run_once_by_its_caller_is_still_one_sample():
    """`timeit.default_timer()` is a clock, not a harness, though its name starts with `timeit.` (case 344's form)."""
    source = """
    import timeit
    import jax
    import jax.numpy as jnp

    f = jax.jit(lambda x: x * 2)

    def benchmark(x, n_runs):
        start = timeit.default_timer()
        for _ in range(n_runs):
            y = f(x).block_until_ready()
        return timeit.default_timer() - start

    x = jnp.ones(8)
    f(x).block_until_ready()
    print(benchmark(x, 1000), benchmark(x, 1))
    """
    assert "LB104" in {c for c, _ in codes(source)}
