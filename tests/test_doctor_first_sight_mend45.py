"""What cases 512-525 showed at first sight, mended in the shared model (mend45).

- `Facts.alternative_defs` (mend44's), read by LB116: a helper defined once per device on the branches of an ``if``
  (``def _sync(): torch.cuda.synchronize()`` for CUDA, ``def _sync(): pass`` for the CPU) may run any of its bodies;
  a timing that calls it synchronizes where the work is on CUDA (NeoNeuron's ``run_benchmarks.py``, case 522's false LB116:188/200).
- `_vocabulary.DEVICE_COUNTS` and `COUNT_METHODS`, read by LB106: a loop under jit over the number of processes or
  devices (``range(mpi_size)`` with ``mpi_size = comm.Get_size()``) walks the machine's fixed structure, one step per
  rank, not the data (mpi4jax's shallow-water ``reassemble_array``, case 514's false LB106:494).
- `Warmth.last_clear`: ``f._clear_cache()`` right before a timed call of a jitted wrapper of ``f`` (``jax.vmap(f)``,
  ``jax.jit(f) if use_jit else f``) drops the code the wrapper is built from: the cold timing is meant, as it is
  for ``f`` itself (case 346's ``vmap`` and ``cond-jit`` variants, LB104 on a correct variant).
- `_names.CONVENTIONAL`: ``partial`` left unimported in a snippet is ``functools.partial``, so
  ``@partial(jax.jit, static_argnums=0)`` jits the function and ``jax.vmap`` of it is one compiled program, not
  operations dispatched one by one (flax#912's snippet, case 376's ``vmap`` variant, LB114 on a correct variant).
- `_regions`: ``timeit.timeit(..., number=1)`` in a function called from several places takes one sample per call,
  how many not known, as a clock pair there does (``_pair_samples``: ``unknown``), not one single sample (quadbench's
  ``Task.sample``, case 494's ``timeit-lambda`` variant, LB104 on a correct variant).
- `Facts._def_in_effect_is_plain`: a lambda handed straight to a call (``timeit.timeit(lambda: f(x), number=1)``) runs
  where it is written, so ``f`` there is the plain def in effect, not a ``@jax.jit def f`` bound later (the
  ``timeit-lambda`` variant of a correct copy of case 311's lecture code, LB103 on a correct variant).
- `_effects.is_wait`: a call through a container every element of which is a wait (``fns = {"get": jax.device_get}``,
  ``fns["get"](x)``) waits as the function does (case 491's ``container`` variant, LB102 on a correct variant).
- `_intent.figure_never_read`, read by LB112: a harness timing in a function whose figure is dropped or bound to names
  never read again (GS_SOC's ``warmup()``: ``res = t0.timeit(1000).mean``) is a warm-up, not a measurement that
  autograd could inflate (case 512's false LB112:53).
- `Kinds`: a parameter every call hands a JAX transform of a function (``vectorized_fn = jax.vmap(fn)``, then
  ``measure_time(vectorized_fn, ci)``) computes in JAX when the helper calls it, so its unwaited call between two clock
  reads is LB102 (climate_code_conversion's ``measure_time``, cases 517's and 518's missed LB102).
- `_regions._swept_by_callers`: a helper called once per value of a grid and handed the input the pass builds from
  it (``ci_vals = jnp.linspace(35.0, 70.0, num=grid_sample)``, ``measure_time(fn, ci_vals)``, by position or into
  ``*inputs``) takes one sample per value, as when it is handed the value itself (case 518's missed LB104).
- `_regions._written_out_grid`: a platform written out as a string per call (``measure_time("cpu", fn, x)``, then
  ``measure_time("gpu", fn, x)``) is a setting timed once each, as numbers and flags are (case 517's missed LB104).
- `_intent.timing_words`, read by LB103 and LB102: a comment inside a timing right above a statement that binds a jit
  wrapper (``# JIT compile the function`` over ``f_jit = jit(f)``) names that step, not what the figure is for:
  wrapping compiles nothing (case 524's missed LB102 and LB103, a first call timed beside a NumPy sample).
- `_kinds.call_kind`: a project library's function named as its JAX version (``compute_full_jax`` beside the NumPy
  ``compute_full``, ``jax_transform``) returns JAX arrays, so an unwaited ``%timeit`` of it is LB102 (s2fft's timing
  notebook, case 515's missed LB102).
- `Warmth.warms`: a warm-up handed pieces of the timed inputs (``f(x[:1])``, ``fn(*tuple(process_item(item) for item
  in inputs))`` with ``process_item`` returning ``jnp.array([item[0]])``) compiles for the pieces' shapes; the timed
  call is the first at its own (case 517's reading).
- LB103's `_handed_jits`: a parameter every call hands a transform of a jitted function, maybe through another
  parameter (``measure_time``'s ``fn``, handed ``compare_cpu_gpu``'s ``jax.vmap(fn)`` of the jitted function its caller
  hands it), runs that jit: its first call at the timed shape compiles (case 517's missed LB103).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 522: a synchronize defined per device on the branches of an `if` ---------------------------------------------
PER_DEVICE_SYNC = """
{imports}
import torch


def bench(device="cpu", steps=20):
    if device == "cuda":
        torch_device = torch.device("cuda")
        def {sync}(): {cuda_sync}
    elif device == "mps":
        torch_device = torch.device("mps")
        def {sync}(): torch.mps.synchronize()
    else:
        torch_device = torch.device("cpu")
        def {sync}(): pass
    model = torch.nn.Linear(64, 64).to(torch_device)
    xs = torch.randn(64, 64, device=torch_device)
    for _ in range(5):
        model(xs).sum().backward()
    {sync}()
    times = []
    for _ in range(steps):
        t0 = {clock}
        model(xs).sum().backward()
        {sync}()
        times.append({clock} - t0)
    return sorted(times)[len(times) // 2]


bench("cuda")
"""


@pytest.mark.parametrize(
    ("imports", "sync", "cuda_sync", "clock"),
    [
        ("import time", "_sync", "torch.cuda.synchronize()", "time.perf_counter()"),  # as posted
        ("from time import perf_counter as now", "wait", "torch.cuda.synchronize()", "now()"),  # aliased clock, name
        ("import timeit", "_sync", "torch.cuda.current_stream().synchronize()", "timeit.default_timer()"),  # others
    ],
)
def test_a_synchronize_defined_per_device_on_branches_waits_for_cuda(imports, sync, cuda_sync, clock):
    found = codes(PER_DEVICE_SYNC.format(imports=imports, sync=sync, cuda_sync=cuda_sync, clock=clock))
    assert not lines(found, "LB116"), found


def test_a_synchronize_defined_per_device_at_module_level_waits_for_cuda():
    source = """
import time
import torch

if torch.cuda.is_available():
    device = "cuda"
    def sync(): torch.cuda.synchronize()
else:
    device = "cpu"
    def sync(): pass

model = torch.nn.Linear(64, 64).to(device)
x = torch.randn(64, 64, device=device)
model(x)
sync()
t0 = time.perf_counter()
for _ in range(100):
    model(x)
sync()
print((time.perf_counter() - t0) / 100)
"""
    found = codes(source)
    assert not lines(found, "LB116"), found
    head, _, tail = source.partition("model = ")
    assert "LB116" not in {c for c, _, _ in notebook_codes(head, "model = " + tail)}


def test_helpers_that_never_synchronize_on_any_branch_still_leave_cuda_work_unwaited():
    source = PER_DEVICE_SYNC.format(imports="import time", sync="_sync", cuda_sync="pass", clock="time.perf_counter()")
    source = source.replace("torch.mps.synchronize()", "pass")
    found = codes(source)
    assert lines(found, "LB116"), found


# --- 514: a loop under jit over the number of processes or devices ------------------------------------------------
PER_RANK = """
import jax
import jax.numpy as jnp
{imports}

{count_binding}
ny, nx = 90, 180


@jax.jit
def reassemble(arr):
    out = jnp.empty((ny * {count}, nx), dtype=arr.dtype)
    for i in range({count}):
        out = out.at[i * ny:(i + 1) * ny].set(arr[i])
    return out


x = jnp.ones(({count}, ny, nx))
reassemble(x).block_until_ready()
"""


@pytest.mark.parametrize(
    ("imports", "count_binding", "count"),
    [
        ("from mpi4py import MPI", "comm = MPI.COMM_WORLD\nmpi_size = comm.Get_size()", "mpi_size"),  # as posted
        ("from mpi4py import MPI as mpi", "size = mpi.COMM_WORLD.Get_size()\nranks = size // min(size, 2)", "ranks"),
        ("", "shards = jax.device_count()", "shards"),  # another count: the devices
        ("", "", "jax.local_device_count()"),  # the count written in the loop
    ],
)
def test_a_loop_over_the_process_or_device_count_under_jit_is_structure(imports, count_binding, count):
    found = codes(PER_RANK.format(imports=imports, count_binding=count_binding, count=count))
    assert not lines(found, "LB106"), found


def test_a_loop_over_the_process_count_under_jit_in_notebook_cells_is_structure():
    source = PER_RANK.format(imports="from mpi4py import MPI", count_binding="mpi_size = MPI.COMM_WORLD.Get_size()",
                             count="mpi_size")
    head, _, tail = source.partition("ny, nx")
    found = notebook_codes(head, "ny, nx" + tail)
    assert "LB106" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize("count", ["shards * 1024", "rows"])
def test_a_loop_over_a_data_sized_count_under_jit_is_still_unrolled(count):
    source = PER_RANK.format(imports="", count_binding="shards = jax.device_count()\nrows = 4096", count=count)
    found = codes(source)
    assert lines(found, "LB106") == {line_of(source, "for i in range")}, found


# --- 346's variants: a cache cleared right before a timed call of a wrapper of the cleared function --------------
CLEARED = """
import time
import jax
import jax.numpy as jnp


@jax.jit
def solve(x):
    return jax.lax.fori_loop(0, 100, lambda i, v: jnp.tanh(v) @ v, x)


{binding}


def main():
    x = jnp.ones((8, 64, 64))
    jax.block_until_ready({callee}(x))
    {cleared}._clear_cache()
    t0 = {clock}
    r = {callee}(x); jax.block_until_ready(r)
    cold = {clock} - t0
    print("cold (compile + run)", cold)


main()
"""


@pytest.mark.parametrize(
    ("binding", "callee", "clock"),
    [
        ("solve_batched = jax.vmap(solve)", "solve_batched", "time.perf_counter()"),  # vmap variant
        ("use_jit = bool(1)\nsolve_maybe_jit = jax.jit(solve) if use_jit else solve", "solve_maybe_jit",
         "time.perf_counter()"),  # cond-jit variant
        ("import functools\nsolve_batched = jax.vmap(functools.partial(solve))", "solve_batched", "time.monotonic()"),
    ],
)
def test_a_clear_of_the_wrapped_function_right_before_a_timing_is_a_compile_timed_on_purpose(binding, callee, clock):
    source = CLEARED.format(binding=binding, callee=callee, cleared="solve", clock=clock)
    found = codes(source)
    assert not lines(found, "LB104") and not lines(found, "LB103"), found
    head, _, tail = source.partition("def main")
    assert not {c for c, _, _ in notebook_codes(head, "def main" + tail)} & {"LB103", "LB104"}


def test_a_clear_of_another_function_leaves_the_wrapper_warm():
    source = CLEARED.format(binding="solve_batched = jax.vmap(solve)\nother = jax.jit(jnp.sin)", callee="solve_batched",
                            cleared="other", clock="time.perf_counter()")
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "r = solve_batched(x)")}, found


# --- 376's vmap variant: `@partial(jax.jit, ...)` in a snippet with its imports left out -------------------------
SNIPPET_PARTIAL_JIT = """
# %%
@partial(jax.jit, static_argnums=0)
def apply_fun(ma, w, x):
    return ma.apply(w, x)
{binding}

# %%
%timeit _ = {callee}(j_ma, j_w, x).block_until_ready()
"""


@pytest.mark.parametrize(
    ("binding", "callee"),
    [
        ("import jax; apply_fun_batched = jax.vmap(apply_fun)", "apply_fun_batched"),  # the vmap variant
        ("apply_fun_batched = vmap(apply_fun, in_axes=(None, None, 0))", "apply_fun_batched"),  # vmap unimported too
        ("", "jax.vmap(apply_fun)"),  # the transform written in the call
    ],
)
def test_an_unimported_partial_jit_decorator_jits_the_function_a_vmap_wraps(binding, callee):
    found = codes(SNIPPET_PARTIAL_JIT.format(binding=binding, callee=callee))
    assert not lines(found, "LB114"), found


def test_an_unimported_partial_of_a_plain_function_under_vmap_is_still_eager():
    source = SNIPPET_PARTIAL_JIT.format(binding="apply_fun_batched = jax.vmap(apply_fun)", callee="apply_fun_batched")
    source = source.replace("@partial(jax.jit, static_argnums=0)\n", "")
    found = codes(source)
    assert lines(found, "LB114"), found


# --- 494's timeit-lambda variant: `timeit(..., number=1)` in a method called from several places ------------------
ONE_RUN_PER_CALL = """
import timeit
import numpy as np
import jax
import jax.numpy as jnp


class Task:
    def __init__(self, n):
        self.fn = jax.jit(lambda a, b: a @ b)
        self.pairs = [(jnp.ones((n, n)), jnp.ones((n, n))) for _ in range(4)]

    def _launch(self, base):
        a, b = self.pairs[base % len(self.pairs)]
        return self.fn(a, b)

    def sample(self, base):
        return {timing}

    def calibrate(self):
        jax.block_until_ready(self._launch(0))
        return self.sample(0)


def main():
    t = Task(256)
    t.calibrate()
    print(float(np.median([t.sample(i) for i in range(20)])))


main()
"""


@pytest.mark.parametrize(
    "timing",
    [
        "timeit.timeit(lambda: jax.block_until_ready(self._launch(base)), number=1)",  # the variant
        "timeit.timeit('jax.block_until_ready(self._launch(base))', globals={'jax': jax, 'self': self, 'base': base},"
        " number=1)",  # a statement string
        "tm.timeit(lambda: jax.block_until_ready(self._launch(base)), number=1) * 1e6",  # aliased module, scaled
    ],
)
def test_one_run_per_call_of_a_method_called_from_several_places_is_no_single_sample(timing):
    found = codes(ONE_RUN_PER_CALL.format(timing=timing).replace("import timeit", "import timeit\nimport timeit as tm"))
    assert not lines(found, "LB104"), found


def test_one_run_in_a_function_called_once_is_still_a_single_sample():
    source = """
import timeit
import jax
import jax.numpy as jnp

f = jax.jit(lambda a: a @ a)


def sample(x):
    return timeit.timeit(lambda: jax.block_until_ready(f(x)), number=1)


x = jnp.ones((256, 256))
print(sample(x))
"""
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "timeit.timeit")}, found


# --- a timeit-lambda variant (a correct copy of 311's lecture code): a lambda handed to timeit reads the def in effect where it is written -----------
REBOUND_LATER = """
# %%
import jax
import jax.numpy as jnp
{imports}
# %%
def f(x):
    return jnp.sum(3 * x + jnp.sin(x) + jnp.cos(x ** 2))
# %%
x = jnp.ones(5_000_000)
# %%
print({timing})
# %%
@jax.jit
def f(x):
    return jnp.sum(3 * x + jnp.sin(x) + jnp.cos(x ** 2))
# %%
f(x).block_until_ready()
"""


@pytest.mark.parametrize(
    ("imports", "timing"),
    [
        ("import timeit", "timeit.timeit(lambda: f(x).block_until_ready(), number=1)"),  # the variant
        ("import timeit as ti", "ti.timeit(stmt=lambda: f(x).block_until_ready(), number=1)"),  # aliased, keyword
        ("from timeit import timeit", "timeit(lambda: jax.block_until_ready(f(x)), number=3)"),
    ],
)
def test_a_lambda_handed_to_timeit_runs_the_plain_def_bound_where_it_is_written(imports, timing):
    source = REBOUND_LATER.format(imports=imports, timing=timing)
    found = codes(source)
    assert not lines(found, "LB103"), found
    cells = source.split("# %%\n")[1:]
    assert "LB103" not in {c for c, _, _ in notebook_codes(*cells)}


def test_a_lambda_handed_to_timeit_after_the_jitted_def_times_its_first_call():
    source = REBOUND_LATER.format(imports="import timeit", timing="0")
    source = source.replace("f(x).block_until_ready()\n", "print(timeit.timeit(lambda: f(x).block_until_ready(), number=1))\n")
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "print(timeit.timeit")}, found


# --- 491's container variant: a wait called through a container ---------------------------------------------------
HELD_WAIT = """
import time
{imports}

step = {jax}.jit(lambda k: {jax}.random.normal(k, (512, 512)) @ {jax}.random.normal(k, (512, 512)))
{binding}
{jax}.block_until_ready(step({jax}.random.PRNGKey(0)))
seconds = []
for repeat in range(10):
    start = time.perf_counter()
    out = {callee}(step({jax}.random.PRNGKey(repeat + 1)))
    seconds.append(time.perf_counter() - start)
print(sorted(seconds)[5])
"""


@pytest.mark.parametrize(
    ("imports", "jax", "binding", "callee"),
    [
        ("import jax", "jax", 'fns = {"jax_device_get": jax.device_get}', 'fns["jax_device_get"]'),  # the variant
        ("import jax as jx", "jx", "waits = [jx.block_until_ready]", "waits[0]"),  # aliased, a list
        ("import jax\nimport numpy as np", "jax", 'to_host = {"np": np.asarray, "jax": jax.device_get}',
         'to_host["np"]'),  # every element a wait
    ],
)
def test_a_wait_called_through_a_container_waits(imports, jax, binding, callee):
    found = codes(HELD_WAIT.format(imports=imports, jax=jax, binding=binding, callee=callee))
    assert not lines(found, "LB102"), found


def test_a_container_holding_a_function_that_does_not_wait_leaves_the_work_unwaited():
    source = HELD_WAIT.format(imports="import jax\nimport jax.numpy as jnp", jax="jax",
                              binding='fns = {"get": jax.device_get, "keep": jnp.asarray}', callee='fns["keep"]')
    found = codes(source)
    assert lines(found, "LB102"), found


# --- 512: a harness run as a warm-up, its figure never read -------------------------------------------------------
WARMUP_HARNESS = """
import torch
from torch import nn
{imports}


def warmup():
    linear = nn.Linear(10000, 512, device="cuda")
    x = torch.randn(64, 10000, device="cuda")
    {timing}
    del x
    del linear
    torch.cuda.empty_cache()


def conv(inputs, conv_layer):
    with torch.no_grad():
        return timeit.timeit(lambda: (conv_layer(inputs), torch.cuda.synchronize()), number=100)


warmup()
layer = nn.Conv2d(64, 64, 3).cuda()
print(conv(torch.randn(8, 64, 56, 56).cuda(), layer))
"""


@pytest.mark.parametrize(
    ("imports", "timing"),
    [
        ("import timeit\nfrom torch.utils import benchmark",
         't0 = benchmark.Timer(stmt="linear(x)", globals={"x": x, "linear": linear})\n    res = t0.timeit(1000).mean'),
        ("import timeit\nfrom torch.utils.benchmark import Timer as T",
         'T(stmt="linear(x)", globals={"x": x, "linear": linear}).blocked_autorange()'),  # aliased, dropped
        ("import timeit", "_ = timeit.timeit(lambda: (linear(x), torch.cuda.synchronize()), number=100)"),
    ],
)
def test_a_harness_run_as_a_warm_up_whose_figure_nothing_reads_is_no_autograd_timing(imports, timing):
    found = codes(WARMUP_HARNESS.format(imports=imports, timing=timing))
    assert not lines(found, "LB112"), found


@pytest.mark.parametrize("use", ["return res", "print(res)"])
def test_a_harness_figure_that_is_read_is_still_an_autograd_timing(use):
    timing = 't0 = benchmark.Timer(stmt="linear(x)", globals={"x": x, "linear": linear})\n    res = t0.timeit(1000).mean'
    source = WARMUP_HARNESS.format(imports="import timeit\nfrom torch.utils import benchmark", timing=timing)
    source = source.replace("    del x\n", f"    {use}\n", 1)
    found = codes(source)
    assert lines(found, "LB112") == {line_of(source, "t0 = benchmark.Timer")}, found


# --- 517 and 518: a timing helper handed a vmapped function, called per size --------------------------------------
HANDED_TRANSFORM = """
import jax
import jax.numpy as jnp
{imports}

from project.solver import element_root


def measure_time(fn, *inputs):
    _ = fn(*inputs)
    start_time = {clock}
    _ = fn(*inputs)
    return {clock} - start_time


{binding}
for size in [1000, 10000, 100000]:
    xs = jnp.linspace(35.0, 70.0, num=size)
    print(size, measure_time({handed}, xs))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "binding", "handed"),
    [
        ("import time", "time.time()", "vectorized_fn = jax.vmap(element_root)", "vectorized_fn"),  # as posted
        ("from time import perf_counter as now", "now()", "slopes = jax.vmap(jax.grad(element_root))", "slopes"),
        ("import timeit", "timeit.default_timer()", "batched = jax.vmap(element_root, in_axes=0)", "batched"),
    ],
)
def test_a_helper_timing_a_transform_it_is_handed_leaves_it_unwaited(imports, clock, binding, handed):
    source = HANDED_TRANSFORM.format(imports=imports, clock=clock, binding=binding, handed=handed)
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "_ = fn(*inputs)", 2)}, found
    assert "LB102" in {c for c, _, _ in notebook_codes(source)}


def test_a_helper_handed_a_transform_and_a_plain_function_is_not_known_to_run_jax():
    source = HANDED_TRANSFORM.format(imports="import time", clock="time.time()",
                                     binding="vectorized_fn = jax.vmap(element_root)", handed="vectorized_fn")
    source += "print(measure_time(sorted, [3, 1, 2]))\n"
    found = codes(source)
    assert not lines(found, "LB102"), found


# --- 518: a helper called once per grid value, handed the input built from it -------------------------------------
PER_SIZE = """
import jax
import jax.numpy as jnp
{imports}

solve = jax.jit(lambda x: jnp.cumsum(jnp.sin(x)))


def measure_time(fn, {params}):
    fn({args}).block_until_ready()
    start = {clock}
    fn({args}).block_until_ready()
    return {clock} - start


for size in [1000, 10000, 100000, 1000000]:
    {build}
    print(size, measure_time(solve, {given}))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "params", "args", "build", "given"),
    [
        ("import time", "time.time()", "*inputs", "*inputs", "xs = jnp.linspace(35.0, 70.0, num=size)", "xs"),
        ("from time import perf_counter as now", "now()", "x", "x", "xs = jnp.ones(size)", "xs"),  # aliased clock
        ("import timeit", "timeit.default_timer()", "x, *rest", "x", "key = jax.random.PRNGKey(size)\n    "
         "xs = jax.random.normal(key, (size,))", "xs"),  # built in two steps
    ],
)
def test_one_sample_per_grid_value_handed_as_an_input_built_from_it_is_a_single_sample(imports, clock, params, args,
                                                                                        build, given):
    source = PER_SIZE.format(imports=imports, clock=clock, params=params, args=args, build=build, given=given)
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "fn(", 2)}, found


def test_a_loop_over_data_batches_handed_to_the_helper_repeats_one_measurement():
    source = PER_SIZE.format(imports="import time", clock="time.time()", params="x", args="x",
                             build="xs = batches[size % 2]", given="xs").replace(
        "for size in [1000, 10000, 100000, 1000000]:", "batches = [jnp.ones(100), jnp.zeros(100)]\nfor size in range(50):")
    found = codes(source)
    assert not lines(found, "LB104"), found


# --- 517: a helper called once per platform, the platform written out as a string --------------------------------
PER_PLATFORM = """
import jax
import jax.numpy as jnp
{imports}

solve = jax.jit(lambda x: jnp.cumsum(jnp.sin(x)))


def measure_time(device, fn, x):
    jax.devices(device)
    fn(x).block_until_ready()
    start = {clock}
    fn(x).block_until_ready()
    return {clock} - start


def compare(fn, x):
    vectorized_fn = jax.vmap(fn)
    print("CPU", measure_time({first}, fn=vectorized_fn, x=x))
    print("GPU", measure_time({second}, fn=vectorized_fn, x=x))


compare(solve, jnp.ones(1_000_000))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "first", "second"),
    [
        ("import time", "time.time()", '"cpu"', '"gpu"'),  # as posted
        ("from time import perf_counter as now", "now()", '"cpu"', '"cuda:0"'),  # aliased clock, torch's spelling
        ("import timeit", "timeit.default_timer()", 'device="cpu"', 'device="tpu"'),  # by keyword
    ],
)
def test_one_sample_per_platform_written_out_is_a_single_sample(imports, clock, first, second):
    source = PER_PLATFORM.format(imports=imports, clock=clock, first=first, second=second)
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "fn(x).block_until_ready()", 2)}, found


def test_a_helper_called_twice_with_the_same_platform_is_not_swept():
    source = PER_PLATFORM.format(imports="import time", clock="time.time()", first='"gpu"', second='"gpu"')
    found = codes(source)
    assert not lines(found, "LB104"), found


# --- 524: a jit wrapper built and first called inside one clock pair, its step comment says "compile" ------------
BUILT_AND_CALLED = """
{imports}
import jax.numpy as jnp


def sum_squares(x):
    return jnp.sum(x ** 2)

start = {clock}
# {comment}
sum_squares_jit = {jit}(sum_squares)

# Call the JIT compiled function
result = sum_squares_jit(jnp.arange(1000.0))

print("JAX Time taken:{{}} seconds".format({clock} - start))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "jit", "comment"),
    [
        ("import time\nfrom jax import jit", "time.time()", "jit", "JIT compile the function"),  # as posted
        ("import jax\nfrom time import perf_counter as now", "now()", "jax.jit", "compile it"),  # aliased clock
        ("import jax as jx\nimport timeit", "timeit.default_timer()", "jx.jit", "jit compilation"),
    ],
)
def test_a_comment_naming_the_jit_wrapper_step_does_not_make_the_timing_a_compile_on_purpose(imports, clock, jit,
                                                                                             comment):
    source = BUILT_AND_CALLED.format(imports=imports, clock=clock, jit=jit, comment=comment)
    found = codes(source)
    call = line_of(source, "result = sum_squares_jit")
    assert call in lines(found, "LB103") and call in lines(found, "LB102"), found
    cells = source.split("\n\n")
    assert {"LB102", "LB103"} <= {c for c, _, _ in notebook_codes("\n\n".join(cells[:2]), "\n\n".join(cells[2:]))}


def test_a_comment_over_the_timed_call_that_says_compile_still_means_the_compile():
    source = BUILT_AND_CALLED.format(imports="import time\nfrom jax import jit", clock="time.time()", jit="jit",
                                     comment="wrap").replace("# Call the JIT compiled function", "# compile time")
    found = codes(source)
    assert not lines(found, "LB103"), found


# --- 515: a project library's function named as its JAX version, timed unwaited ---------------------------------
NAMED_JAX = """
# %%
import numpy as np
import jax.numpy as jnp
{imports}

# %%
L = 128
dl = np.zeros((2 * L - 1, 2 * L - 1))
%timeit {numpy_call}

# %%
dl_jax = jnp.zeros((2 * L - 1, 2 * L - 1))
%timeit {jax_call}
"""


@pytest.mark.parametrize(
    ("imports", "numpy_call", "jax_call"),
    [
        ("import s2fft.wigner as wigner", "wigner.trapani.compute_full(dl, L, 1)",
         "wigner.trapani.compute_full_jax(dl_jax, L, 1)"),  # as posted
        ("from s2fft.wigner.trapani import compute_full, compute_full_jax as full", "compute_full(dl, L, 1)",
         "full(dl_jax, L, 1)"),  # imported by name, aliased
        ("import mylib", "mylib.transform_numpy(dl)", "mylib.jax_transform(dl_jax)"),  # the prefix spelling
    ],
)
def test_a_library_function_named_as_its_jax_version_is_jax_work(imports, numpy_call, jax_call):
    source = NAMED_JAX.format(imports=imports, numpy_call=numpy_call, jax_call=jax_call)
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "%timeit " + jax_call)}, found
    cells = source.split("# %%\n")[1:]
    assert "LB102" in {c for c, _, _ in notebook_codes(*cells)}


def test_a_library_function_named_otherwise_is_not_known_to_be_jax_work():
    source = NAMED_JAX.format(imports="import s2fft.wigner as wigner", numpy_call="wigner.trapani.compute_full(dl, L, 1)",
                              jax_call="wigner.trapani.compute_full_vectorized(dl, L, 1)")
    found = codes(source)
    assert not lines(found, "LB102"), found


# --- 517: a warm-up on pieces of the timed inputs, then the timed call at the full shape --------------------------
CUT_DOWN = """
{imports}
import jax
import jax.numpy as jnp

solve = jax.vmap(jax.jit(lambda x: jnp.cumsum(jnp.sin(x))))


def measure_time(fn, {params}):
    def process_item(item):
        return jnp.array([item[0]])
    _ = fn({warm})
    start_time = {clock}
    _ = fn({timed}).block_until_ready()
    return {clock} - start_time


xs = jnp.ones((1000, 1000))
print(measure_time(solve, {given}))
print(measure_time(solve, {given2}))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "params", "warm", "timed", "given", "given2"),
    [
        ("import time", "time.time()", "inputs", "*tuple(process_item(item) for item in inputs)", "*inputs",
         "(xs,)", "(xs * 2,)"),  # as posted
        ("from time import perf_counter as now", "now()", "*inputs", "*[a[:1] for a in inputs]", "*inputs", "xs",
         "xs * 2"),  # a list of slices, varargs, aliased clock
        ("import timeit", "timeit.default_timer()", "x", "x[:1]", "x", "xs", "xs * 2"),  # one argument sliced
    ],
)
def test_a_warm_up_on_pieces_of_the_timed_inputs_leaves_the_timed_call_cold(imports, clock, params, warm, timed, given,
                                                                            given2):
    source = CUT_DOWN.format(imports=imports, clock=clock, params=params, warm=warm, timed=timed, given=given,
                             given2=given2)
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "_ = fn(", 2)}, found


def test_a_warm_up_on_the_timed_inputs_themselves_warms_the_timed_call():
    source = CUT_DOWN.format(imports="import time", clock="time.time()", params="inputs", warm="*inputs",
                             timed="*inputs", given="(xs,)", given2="(xs * 2,)")
    found = codes(source)
    assert not lines(found, "LB103"), found


# --- 517: the jit reached through two parameters, warmed on a piece of the timed input ---------------------------
TWO_HOPS = """
import jax
import jax.numpy as jnp
{imports}


@jax.jit
def element_root(x):
    return jax.lax.fori_loop(0, 50, lambda i, v: v - jnp.sin(v) / jnp.cos(v), x)


def measure_time(device, fn, inputs):
    jax.devices(device)
    _ = fn(*{warm})
    start_time = {clock}
    _ = fn(*inputs)
    return {clock} - start_time


def compare_cpu_gpu(fn, *args):
    vectorized_fn = {transform}(fn)
    print("CPU", measure_time("cpu", vectorized_fn, args))
    print("GPU", measure_time("gpu", vectorized_fn, args))


compare_cpu_gpu(element_root, jnp.linspace(35, 70, num=1_000_000))
"""


@pytest.mark.parametrize(
    ("imports", "clock", "warm", "transform"),
    [
        ("import time", "time.time()", "tuple(jnp.array([item[0]]) for item in inputs)", "jax.vmap"),  # as posted
        ("from time import perf_counter as now", "now()", "[a[:1] for a in inputs]", "jax.vmap"),  # aliased clock
        ("import timeit", "timeit.default_timer()", "tuple(x[0:1] for x in inputs)", "jax.grad"),  # another transform
    ],
)
def test_a_jit_reached_through_two_parameters_and_warmed_on_a_piece_is_timed_cold(imports, clock, warm, transform):
    source = TWO_HOPS.format(imports=imports, clock=clock, warm=warm, transform=transform)
    found = codes(source)
    assert lines(found, "LB103") == {line_of(source, "_ = fn(*inputs)")}, found
    head, _, tail = source.partition("def compare_cpu_gpu")
    assert "LB103" in {c for c, _, _ in notebook_codes(head, "def compare_cpu_gpu" + tail)}


def test_a_jit_reached_through_two_parameters_and_warmed_on_the_timed_inputs_is_warm():
    source = TWO_HOPS.format(imports="import time", clock="time.time()", warm="inputs", transform="jax.vmap")
    found = codes(source)
    assert not lines(found, "LB103"), found
