"""What cases 490-496 showed at first sight, mended in the shared model (mend43).

- `_intent.repeated_right_after` and `_intent.the_run_holding`, read by LB104: a cold first run timed once and then
  timed again warm in a loop right after is the catalogue's exception, also when the runs differ only in how their
  arguments are written (a fresh key per run: ``jax.block_until_ready(runner.collect(jax.random.PRNGKey(0)))``, then
  ``jax.device_get(runner.collect(jax.random.PRNGKey(repeat + 1)))``), and when the call the rules read as the work
  is a key built for the run rather than the run itself: the key's maker ran before, the run did not (connect4-ai's
  ``benchmark_jax.py``, each warm-up timed apart on purpose, case 491's false LB104:60).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, lines, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 491: a warm-up timed apart, then the same run timed again warm with a fresh key ------------------------------
WARMUP = """
import jax
{imports}
from connect4_jax.training import Runner


def main(repeats=5):
    model = init({random}.PRNGKey(42))
    for simulations in [32, 64, 128]:
        runner = Runner(model, simulations)
        start = {clock}
        jax.block_until_ready(runner.collect({random}.PRNGKey(0)))
        warmup = {clock} - start
        seconds = []
        for repeat in range(repeats):
            start = {clock}
            trajectory = {get}(runner.collect({random}.PRNGKey(repeat + 1)))
            seconds.append({clock} - start)
        print(simulations, warmup, sum(seconds))
"""


@pytest.mark.parametrize(
    ("imports", "random", "clock", "get"),
    [
        ("import time", "jax.random", "time.perf_counter()", "jax.device_get"),  # as posted
        ("import jax.random as jr\nfrom time import perf_counter as now", "jr", "now()", "jax.device_get"),  # aliased
        ("import timeit", "jax.random", "timeit.default_timer()", "jax.block_until_ready"),  # another clock, wait
    ],
)
def test_a_warm_up_timed_apart_then_the_same_run_timed_warm_with_fresh_keys_is_no_single_sample(imports, random,
                                                                                             clock, get):
    found = codes(WARMUP.format(imports=imports, random=random, clock=clock, get=get))
    assert not lines(found, "LB104"), found


def test_a_warm_up_timed_apart_with_no_key_made_before_is_no_single_sample():
    source = WARMUP.format(imports="import time", random="jax.random", clock="time.perf_counter()",
                           get="jax.device_get").replace("init(jax.random.PRNGKey(42))", "load()")
    found = codes(source)
    assert not lines(found, "LB104"), found


def test_a_warm_up_timed_apart_in_notebook_cells_is_no_single_sample():
    source = WARMUP.format(imports="import time", random="jax.random", clock="time.perf_counter()",
                           get="jax.device_get")
    head, _, tail = source.partition("def main")
    found = notebook_codes(head, "def main" + tail + "\nmain()\n")
    assert "LB104" not in {c for c, _, _ in found}, found


def test_a_run_timed_once_and_never_again_is_still_a_single_sample():
    source = WARMUP.format(imports="import time", random="jax.random", clock="time.perf_counter()",
                           get="jax.device_get").replace("runner.collect(jax.random.PRNGKey(repeat + 1))",
                                                         "runner.evaluate(jax.random.PRNGKey(repeat + 1))")
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "jax.block_until_ready(runner.collect")}, found


# --- 519 (entered as 493): a clock started on a later pass of a training loop, read after it; read back on some passes only --------
TRAINING = """
import jax
import jax.numpy as jnp
import optax
{imports}


def loss_fn(weights, batch):
    return jnp.mean((batch @ weights["w"]) ** 2)


def train(steps, data):
    weights = {{"w": jnp.ones((8, 8))}}
    loss_grad = {jit}(jax.value_and_grad(loss_fn))
    optimizer = optax.adamw(1e-3)
    opt_state = optimizer.init(weights)
    for step in range(steps):
        if step == 1:
            start = {clock}
        batch = data[step]
        loss, grads = loss_grad(weights, batch)
        updates, opt_state = optimizer.update(grads, opt_state, weights)
        weights = optax.apply_updates(weights, updates)
        if {logs}:
            print(f"{{step}} {{loss:.4f}}")
    finish = {clock}
    elapsed = finish - start
    print(f"{{elapsed / (steps - 1) * 1000:.1f}} ms/step")


train(200, [jnp.ones((4, 8))] * 200)
"""


@pytest.mark.parametrize(
    ("imports", "jit", "clock", "logs"),
    [
        ("from time import perf_counter", "jax.jit", "perf_counter()", "step < 10 or step % 10 == 0"),  # as posted
        ("import time\nfrom jax import jit as compiled", "compiled", "time.perf_counter()", "step % 10 == 0"),  # alias
        ("import time", "jax.jit", "time.monotonic()", "step <= 5 or step % 50 == 0"),  # another clock
    ],
)
def test_the_passes_after_a_loops_last_read_back_are_unwaited_when_the_clock_starts_on_a_later_pass(imports, jit,
                                                                                                  clock, logs):
    source = TRAINING.format(imports=imports, jit=jit, clock=clock, logs=logs)
    found = codes(source)
    assert lines(found, "LB102") == {line_of(source, "loss_grad(weights, batch)")}, found
    assert not lines(found, "LB103") | lines(found, "LB115"), found  # the first step runs before the clock


def test_the_passes_after_a_loops_last_read_back_in_notebook_cells_are_unwaited():
    source = TRAINING.format(imports="from time import perf_counter", jit="jax.jit", clock="perf_counter()",
                             logs="step < 10 or step % 10 == 0")
    head, _, tail = source.partition("def train")
    found = notebook_codes(head, "def train" + tail)
    assert "LB102" in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    "change",
    [
        ("        if step < 10 or step % 10 == 0:\n            print", "        print"),  # read back on every pass
        ("    finish = perf_counter()", "    jax.block_until_ready(weights)\n    finish = perf_counter()"),  # waited
    ],
)
def test_a_loop_read_back_on_every_pass_or_waited_after_it_is_waited(change):
    original = TRAINING.format(imports="from time import perf_counter", jit="jax.jit", clock="perf_counter()",
                               logs="step < 10 or step % 10 == 0")
    source = original.replace(*change)
    assert source != original
    found = codes(source)
    assert not lines(found, "LB102"), found


def test_a_figure_read_on_the_passes_that_read_back_holds_what_they_wait_for():
    source = TRAINING.format(imports="from time import perf_counter", jit="jax.jit", clock="perf_counter()",
                             logs="step % 10 == 0").replace(
        'print(f"{step} {loss:.4f}")', 'print(f"{step} {loss:.4f}")\n            print(perf_counter() - start)')
    found = codes(source)
    assert line_of(source, "loss_grad(weights, batch)") not in lines(found, "LB102"), found


# --- 480: a library object's method the file says its warm-up compiles, timed in a loop beside a key split --------
ENSEMBLE = """
import jax
{imports}
from feedbax.task import RandomReaches
from feedbax.utils import Timer

timer = Timer()
key = {random}.PRNGKey(0)
for n_steps in [50, 100, 200]:
    task = RandomReaches(n_steps=n_steps)
    models = build_models(task, key)

    # {comment}
    task.eval_ensemble_train_batch(models, 5, 250, key)

    for _ in range(50):
        key, _ = {random}.split(key)
        {timing}
"""
_TIMER = "with timer:\n            task.eval_ensemble_train_batch(models, 5, 250, key)"
_PAIR = ("start = time.perf_counter()\n        task.eval_ensemble_train_batch(models, 5, 250, key)\n"
         "        times.append(time.perf_counter() - start)")


@pytest.mark.parametrize(
    ("imports", "random", "comment", "timing"),
    [
        ("import jax.random as jr", "jr", "make sure the model is compiled", _TIMER),  # as posted
        ("from jax import random", "random", "compile it first", _TIMER),  # aliased, other words
        ("import time\nimport jax.random as jr", "jr", "compilation happens here, outside the timing", _PAIR),  # clock
    ],
)
def test_a_call_the_file_says_its_warm_up_compiles_is_a_compiled_program_and_its_key_splits_glue(imports, random,
                                                                                                comment, timing):
    found = codes(ENSEMBLE.format(imports=imports, random=random, comment=comment, timing=timing))
    assert not lines(found, "LB114"), found


def test_a_call_the_file_says_its_warm_up_compiles_in_notebook_cells_is_a_compiled_program():
    source = ENSEMBLE.format(imports="import jax.random as jr", random="jr", comment="make sure the model is compiled",
                             timing=_TIMER)
    head, _, tail = source.partition("key = ")
    found = notebook_codes(head, "key = " + tail)
    assert "LB114" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize("comment", ["warm up", "run it once without compiling"])
def test_a_warm_up_that_says_nothing_of_compiling_leaves_an_unknown_librarys_key_splits_op_by_op(comment):
    source = ENSEMBLE.format(imports="import jax.random as jr", random="jr", comment=comment, timing=_TIMER)
    found = codes(source)
    assert lines(found, "LB114") == {line_of(source, "for _ in range(50)")}, found


# --- 452: a timing helper runs the function it is handed on the arrays it is handed; a jitted function and NumPy --
HELPER = """
import jax
{imports}


def bench(fn, {params}, sync=None):
    for _ in range(5):
        fn({args})
    times = []
    for _ in range(50):
        t0 = {clock}
        out = fn({args})
        if sync:
            sync(out)
        times.append({clock} - t0)
    return sorted(times)[len(times) // 2]


def run_keras(model):
    imgs = {array}
    model_jit = {jit}(lambda x: model(x, training=False))
    r = model_jit(imgs)
    r.block_until_ready()
    bench(model_jit, imgs, sync=lambda out: out.block_until_ready())


run_keras(build())
"""


@pytest.mark.parametrize(
    ("imports", "params", "args", "clock", "array", "jit"),
    [
        ("import time\nimport numpy as np", "*args", "*args", "time.perf_counter()",  # as posted
         'np.random.randn(4, 32, 32, 3).astype("float32")', "jax.jit"),
        ("from time import perf_counter as now\nimport numpy as onp\nfrom jax import jit", "*inputs", "*inputs",
         "now()", "onp.ones((4, 32), dtype=onp.int32)", "jit"),  # aliased
        ("import time\nimport numpy as np", "x", "x", "time.monotonic()", "np.zeros((4, 8))", "jax.jit"),  # a name
    ],
)
def test_a_numpy_array_handed_with_a_jitted_function_to_a_timing_helper_is_copied_per_call(imports, params, args,
                                                                                           clock, array, jit):
    source = HELPER.format(imports=imports, params=params, args=args, clock=clock, array=array, jit=jit)
    found = codes(source)
    assert lines(found, "LB115") == {line_of(source, "bench(model_jit, imgs")}, found


def test_a_numpy_array_handed_to_a_timing_helper_in_notebook_cells_is_copied_per_call():
    source = HELPER.format(imports="import time\nimport numpy as np", params="*args", args="*args",
                           clock="time.perf_counter()", array="np.ones((4, 8))", jit="jax.jit")
    head, _, tail = source.partition("def run_keras")
    found = notebook_codes(head, "def run_keras" + tail)
    assert "LB115" in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    ("array", "jit"),
    [
        ("jax.numpy.ones((4, 8))", "jax.jit"),  # a JAX array: nothing to copy
        ("np.ones((4, 8))", ""),  # an un-jitted lambda: what it does with NumPy is not known here
    ],
)
def test_a_jax_array_or_an_unjitted_function_handed_to_a_timing_helper_is_quiet(array, jit):
    source = HELPER.format(imports="import time\nimport numpy as np", params="*args", args="*args",
                           clock="time.perf_counter()", array=array, jit=jit)
    found = codes(source)
    assert not lines(found, "LB115"), found


# --- 429: a function Modal runs remotely, never named in the file: an entry point, run once -----------------------
REMOTE = """
import jax
import jax.numpy as jnp
{imports}

app = {app}("fit-on-a-gpu")


@jax.jit
def fit(x):
    return jnp.linalg.svd(x @ x.T)[1]


@app.{registrar}
def fit_remote(n=2000):
    x = jnp.ones((n, n))
    start = {clock}
    s = fit(x).block_until_ready()
    elapsed = {clock} - start
    return {{"elapsed": elapsed, "top": float(s[0])}}
"""


@pytest.mark.parametrize(
    ("imports", "app", "registrar", "clock"),
    [
        ("import time\nimport modal", "modal.App", 'function(gpu="A100", timeout=7200)', "time.perf_counter()"),  # post
        ("from time import perf_counter as now\nimport modal as md", "md.App", "function()", "now()"),  # aliased
        ("import time\nfrom modal import Stub", "Stub", "local_entrypoint()", "time.monotonic()"),  # other names
    ],
)
def test_a_function_modal_runs_and_the_file_never_names_times_one_sample(imports, app, registrar, clock):
    source = REMOTE.format(imports=imports, app=app, registrar=registrar, clock=clock)
    found = codes(source)
    assert lines(found, "LB104") == {line_of(source, "s = fit(x).block_until_ready()")}, found


def test_a_function_modal_runs_in_notebook_cells_times_one_sample():
    source = REMOTE.format(imports="import time\nimport modal", app="modal.App", registrar="function()",
                           clock="time.perf_counter()")
    head, _, tail = source.partition("@app.")
    found = notebook_codes(head, "@app." + tail)
    assert "LB104" in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    ("app", "registrar"),
    [
        ("Registry", "function()"),  # not Modal's application: what the decorator does is not known
        ("modal.App", "function()\n@repeat(5)"),  # another decorator beside it may call the function again
    ],
)
def test_a_function_under_a_decorator_not_modals_alone_has_an_unknown_run_count(app, registrar):
    source = REMOTE.format(imports="import time\nimport modal\nfrom registry import Registry, repeat", app=app,
                           registrar=registrar, clock="time.perf_counter()")
    found = codes(source)
    assert not lines(found, "LB104"), found


# --- 485: arrays a local function returns, unpacked by the caller, then timed unwaited ----------------------------
RETURNED = """
import jax
import jax.numpy as jnp
{imports}


def create_jax_tensors():
    x = {random}.uniform({random}.PRNGKey(0), (1000, 1000), dtype=jnp.float32)
    y = {random}.uniform({random}.PRNGKey(1), (1000, 1000), dtype=jnp.float32)

    return x, y


x, y = create_jax_tensors()
"""


@pytest.mark.parametrize(
    ("imports", "random", "timing"),
    [
        ("", "jax.random", "%timeit x * y"),  # as posted (a %%timeit cell in the notebook)
        ("import jax.random as jr", "jr", "%timeit x + y"),  # aliased, another operator
        ("import time", "jax.random", "start = time.perf_counter()\nz = x * y\nprint(time.perf_counter() - start)"),
    ],
)
def test_arrays_a_local_function_returns_and_the_caller_unpacks_are_jax_arrays(imports, random, timing):
    source = RETURNED.format(imports=imports, random=random) + timing + "\n"
    found = codes(source)
    assert lines(found, "LB102"), found


def test_arrays_a_local_function_returns_in_notebook_cells_are_jax_arrays():
    found = notebook_codes(RETURNED.format(imports="", random="jax.random"), "%%timeit\nx * y\n")
    assert "LB102" in {c for c, _, _ in found}, found


def test_numpy_arrays_a_local_function_returns_are_not_waited_for():
    source = RETURNED.format(imports="import numpy as np", random="jax.random").replace(
        "jax.random.uniform(jax.random.PRNGKey(0), (1000, 1000), dtype=jnp.float32)", "np.ones((1000, 1000))").replace(
        "jax.random.uniform(jax.random.PRNGKey(1), (1000, 1000), dtype=jnp.float32)", "np.ones((1000, 1000))")
    found = codes(source + "%timeit x * y\n")
    assert not lines(found, "LB102"), found


# the guard that reading needs (mend42's revert): a short NumPy index array returned in a tuple, looped under jit
INDICES = """
import jax
import jax.numpy as jnp
import numpy as np


def null_space(b, periodic):
    n = b.shape[0]
    if periodic:
        z = jnp.ones((n, 1))
        j = np.array([0])
    else:
        z = jnp.ones((n, 2))
        j = {indices}
    return z, j


def columns(a, j):
    out = jnp.zeros((a.shape[0], len(j)))
    for c, k in enumerate(j):
        out = out.at[k, c].add(a[k, 0])
    return out


@jax.jit
def spline(b):
    z, j = null_space(b, False)
    return columns(b, j) + z
"""


def test_a_loop_under_jit_over_a_short_numpy_index_array_returned_in_a_tuple_is_small():
    source = INDICES.format(indices="np.array([0, n - 1])")
    found = codes(source)
    assert not lines(found, "LB106"), found


def test_a_loop_under_jit_over_a_long_numpy_array_returned_in_a_tuple_still_unrolls():
    source = INDICES.format(indices="np.arange(n)")
    found = codes(source)
    assert lines(found, "LB106") == {line_of(source, "for c, k in enumerate(j)")}, found
