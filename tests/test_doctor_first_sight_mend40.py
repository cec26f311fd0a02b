"""What earlier first sights left, mended in the shared model (mend40).

- `_hook_timing.hook_pairs`, read by LB105: a callback of a framework's loop (a class deriving from an imported
  ``...Callback``: Keras, ``tf.keras``, transformers' ``TrainerCallback``, Lightning) that keeps a clock reading on
  ``self`` in one hook and subtracts it in another times the framework's work between the two hooks, none of it
  written in the file; a wall-clock reading there is LB105 (keras-benchmarks' ``BenchmarkMetricsCallback``, case
  458's missed LB105:28/39).
- LB105's framework work: a method of an object the function around the timing is handed and never rebinds
  (``def generate(model, ...)``, then ``model.generate(inputs)`` between ``time.time()`` reads), in a file that uses a
  framework, is as unknown as a function the file does not define, which was already read as work: the model handed to
  a timing helper (case 458's missed LB105:68/74).
- LB114's compiled step beside the loop's glue: a method of an object built by a class the file imports from its own
  project (``batched_env = RolloutManager(env, batch_size=100)`` from ``rollout_menager``), run on JAX values with its
  results bound, is the compiled program the loop exists for, as a handed object's step already was (cases 331, 332);
  one key split beside it is no op-by-op loop (JaxMARL's switch-riddle benchmark, case 426's false LB114:47), when the
  step is written as JAX steps are, state in and state out (``_, state, ... = env.batch_step(key, state, actions)``);
  a stateful environment's ``timestep = env.step(action)`` over a JAX array's elements stays LB114 (case 367).
- LB114's set-up: an eager loop in a helper of the script that only the script's top level calls, once per call site,
  outside every timing and every loop, runs once as the example's set-up, like a loop a cell writes itself (the
  Pallas block-sparse page's ``sparsify_mask``, case 418's false LB114:228, whose timing is a helper's returned
  ``run``). A helper called in a loop, from another function or inside the timing still pays per call.
- LB103's warm-up before a timing helper: a helper that times what it is handed (``bench(fn, *args)``) is warmed
  where each caller hands it a function; the callers that hand it other functions (another framework's rows) say
  nothing of this one. Only the sites that hand the jitted function are asked now, so a jitted def made anew in
  ``run_pure_jax`` and called once before ``bench(gen_jit, ids)`` is warm (Keras's ``bench.py``, case 452's false
  LB103:63).
"""

from __future__ import annotations

import textwrap

import pytest

from doctor_support import codes, notebook_codes


def line_of(source: str, text: str, nth: int = 1) -> int:
    """The line (1-based, of the dedented source) holding the ``nth`` occurrence of ``text``."""
    found = [k for k, line in enumerate(textwrap.dedent(source).splitlines(), 1) if text in line]
    return found[nth - 1]


# --- 458: a clock pair split over a callback's hooks ---------------------------------------------------------------
CALLBACK = """
{imports}


class StepTimer({base}):
    def __init__(self, first=1, last=100):
        self.first = first
        self.last = last
        self.state = {{}}

    def {opening}(self, {hook_args}):
        if batch == self.first:
            {place} = {clock}

    def {closing}(self, {hook_args}):
        if batch == self.last:
            self.per_step = ({clock} - {place}) / (self.last - self.first + 1)


def fit(model, dataset):
    timer = StepTimer()
    model.fit(dataset, epochs=1, callbacks=[timer])
    return timer.per_step
"""
_KERAS_HOOKS = ("on_train_batch_begin", "on_train_batch_end", "batch, logs=None")


@pytest.mark.parametrize(
    ("imports", "base", "hooks", "place", "clock"),
    [
        ("import time\nimport keras", "keras.callbacks.Callback", _KERAS_HOOKS, 'self.state["begin"]', "time.time()"),
        ("import time as tm\nfrom tensorflow import keras", "keras.callbacks.Callback",
         ("on_predict_batch_begin", "on_predict_batch_end", "batch, logs=None"), "self.t0", "tm.time()"),  # aliased
        ("from time import time\nfrom keras.callbacks import Callback as Hook", "Hook", _KERAS_HOOKS, "self.t0",
         "time()"),  # imported by name, under another name
        ("import datetime\nimport keras", "keras.callbacks.Callback", _KERAS_HOOKS, "self.started",
         "datetime.datetime.now()"),  # another wall clock
        ("import time\nimport transformers", "transformers.TrainerCallback",
         ("on_step_begin", "on_step_end", "args, state, control, batch=1, **kwargs"), "self.t0", "time.time()"),
        ("import time\nimport lightning as L", "L.Callback",
         ("on_train_batch_start", "on_train_batch_end", "trainer, module, outputs=None, batch=None, batch_idx=0"),
         "self.t0", "time.time()"),  # Lightning's `_start` hooks
    ],
)
def test_a_wall_clock_split_over_a_callbacks_hooks_is_lb105(imports, base, hooks, place, clock):
    opening, closing, hook_args = hooks
    source = CALLBACK.format(
        imports=imports, base=base, opening=opening, closing=closing, hook_args=hook_args, place=place, clock=clock
    )
    found = codes(source)
    assert ("LB105", line_of(source, f"{place} = ")) in found, found


def test_the_finding_names_both_hooks():
    from levelbench.doctor import lint_source

    source = CALLBACK.format(
        imports="import time\nimport keras", base="keras.callbacks.Callback", opening="on_epoch_begin",
        closing="on_epoch_end", hook_args="batch, logs=None", place="self.t0", clock="time.time()",
    )
    (finding,) = [d for d in lint_source(textwrap.dedent(source), "bench.py") if d.code == "LB105"]
    assert "`on_epoch_begin`" in finding.message and "`on_epoch_end`" in finding.message, finding.message
    assert "perf_counter" in finding.finding.fix and "StepTimer" in finding.finding.evidence, finding.finding


def test_a_split_pair_in_notebook_cells_is_found():
    found = notebook_codes(
        "import time\nimport keras",
        "class Timer(keras.callbacks.Callback):\n"
        "    def on_epoch_begin(self, epoch, logs=None):\n        self.t0 = time.time()\n"
        "    def on_epoch_end(self, epoch, logs=None):\n        print(time.time() - self.t0)",
        "model.fit(x, y, epochs=3, callbacks=[Timer()])",
    )
    assert ("LB105", 2, 3) in found, found


@pytest.mark.parametrize(
    ("imports", "base", "clock"),
    [
        ("import time\nimport keras", "keras.callbacks.Callback", "time.perf_counter()"),  # a steady clock
        ("import time\nimport keras", "object", "time.time()"),  # a class no framework calls back
        ("import time\nimport keras", "keras.layers.Layer", "time.time()"),  # not a callback
    ],
)
def test_a_split_pair_that_is_not_a_wall_clock_in_a_callback_stays_quiet(imports, base, clock):
    source = CALLBACK.format(
        imports=imports, base=base, opening="on_train_batch_begin", closing="on_train_batch_end",
        hook_args="batch, logs=None", place="self.t0", clock=clock,
    )
    assert "LB105" not in {c for c, _ in codes(source)}


def test_a_reading_kept_but_never_subtracted_in_another_hook_stays_quiet():
    source = """
    import time
    import keras

    class Stamp(keras.callbacks.Callback):
        def on_epoch_begin(self, epoch, logs=None):
            self.stamp = time.time()

        def on_epoch_end(self, epoch, logs=None):
            print("epoch ended", self.stamp)
    """
    assert "LB105" not in {c for c, _ in codes(source)}


@pytest.mark.parametrize(
    "check",
    [
        "if time.time() - self.last > 3600:\n                jax.profiler.start_trace('/tmp/trace')",  # a schedule
        "elapsed = time.time() - self.last\n            if elapsed >= self.timeout:\n                raise StopIteration",
    ],
)
def test_a_callback_that_compares_the_interval_with_a_limit_times_nothing(check):
    source = """
    import time
    import jax
    from jax_trainer.callbacks import Callback

    class Profiler(Callback):
        def on_training_start(self):
            self.last = time.time()

        def on_training_step(self, epoch_idx, step_idx):
            {check}
    """.format(check=check)
    assert "LB105" not in {c for c, _ in codes(source)}


# --- 458: a method of an object the timing function is handed ---------------------------------------------------
HANDED = """
{imports}


def generate(model, inputs, steps=100):
    model.generate(inputs, max_length=32)
    start = {clock}
    for _ in range(steps):
        {call}
    total = {clock} - start
    return total / steps
"""


@pytest.mark.parametrize(
    ("imports", "call", "clock"),
    [
        ("import time\nimport numpy as np\nimport keras", "model.generate(inputs, max_length=32)", "time.time()"),
        ("import time as tm\nimport jax", "model.generate(inputs, max_length=32)", "tm.time()"),  # aliased
        ("from time import time\nimport torch", "model.predict(inputs)", "time()"),  # by name, another method
        ("import datetime\nimport numpy as np", "model.generate(inputs)", "datetime.datetime.now()"),  # another clock
    ],
)
def test_a_handed_objects_method_timed_on_the_wall_clock_is_lb105(imports, call, clock):
    source = HANDED.format(imports=imports, call=call, clock=clock)
    assert ("LB105", line_of(source, "    start = ")) in codes(source)


def test_a_handed_objects_method_in_a_helper_called_from_a_notebook_cell_is_found():
    found = notebook_codes(
        "import time\nimport jax",
        "def timed(sampler, key):\n    t0 = time.time()\n    out = sampler.run(key)\n    return out, time.time() - t0",
        "timed(make_sampler(), jax.random.key(0))",
    )
    assert ("LB105", 2, 2) in found, found


@pytest.mark.parametrize(
    ("imports", "call"),
    [
        ("import time", "model.generate(inputs, max_length=32)"),  # no framework in the file
        ("import time\nimport jax", "log.write('step')"),  # not a parameter
        ("import time\nimport jax", "model = open('log.txt')\n        model.write('step')"),  # rebound in the function
    ],
)
def test_a_method_call_not_of_a_handed_object_in_a_framework_file_stays_quiet(imports, call):
    source = HANDED.format(imports=imports, call=call, clock="time.time()")
    assert "LB105" not in {c for c, _ in codes(source)}, codes(source)


def test_a_method_of_self_is_not_a_handed_object():
    source = """
    import time
    import jax

    class Log:
        def flush(self):
            t0 = time.time()
            self.write_all()
            return time.time() - t0

        def write_all(self):
            pass
    """
    assert "LB105" not in {c for c, _ in codes(source)}


# --- 426: a step of an object built by a class of the file's own project ----------------------------------------
PROJECT_STEP = """
import time
import jax
{imports}


def get_jax_time(max_steps):
    env = {build}
    key = jax.random.PRNGKey(0)
    key, key_r = jax.random.split(key)
    _, state = env.batch_reset(key_r)
    t0 = {clock}
    for i in range(max_steps):
        key, key_s = jax.random.split(key)
        _, state, _, _, _ = env.batch_step(key_s, state)
    jax.block_until_ready(state)
    return {clock} - t0


print(get_jax_time(1000))
"""


@pytest.mark.parametrize(
    ("imports", "build", "clock"),
    [
        ("from rollout_menager import RolloutManager", "RolloutManager(make('riddle'), batch_size=100)", "time.time()"),
        ("import rollout_menager as rm", "rm.RolloutManager(batch_size=100)", "time.perf_counter()"),  # module alias
        ("from envs.batched import Batched as Env", "Env(100)", "time.monotonic()"),  # a package, renamed
    ],
)
def test_a_key_split_beside_a_project_objects_step_is_glue(imports, build, clock):
    source = PROJECT_STEP.format(imports=imports, build=build, clock=clock)
    assert "LB114" not in {c for c, _ in codes(source)}, codes(source)


def test_a_project_objects_step_in_notebook_cells_is_glue():
    found = notebook_codes(
        "import time\nimport jax\nfrom rollout_menager import RolloutManager",
        "env = RolloutManager(batch_size=100)\nkey = jax.random.PRNGKey(0)\n_, state = env.batch_reset(key)",
        "t0 = time.perf_counter()\nfor i in range(1000):\n    key, key_s = jax.random.split(key)\n"
        "    state, reward = env.batch_step(key_s, state)\nprint(time.perf_counter() - t0)",
    )
    assert "LB114" not in {c for c, _, _ in found}, found


def test_a_local_classes_eager_step_is_still_op_by_op():
    source = PROJECT_STEP.format(
        imports="import jax.numpy as jnp\n\nclass Manager:\n    def batch_reset(self, key):\n"
        "        return None, jnp.zeros(3)\n\n    def batch_step(self, key, state):\n"
        "        s = jnp.sin(state) + jnp.cos(state) * 2.0\n        return None, s, None, None, None",
        build="Manager()", clock="time.perf_counter()",
    )
    assert "LB114" in {c for c, _ in codes(source)}, codes(source)



def test_a_stateful_project_objects_step_over_a_jax_array_is_still_op_by_op():
    source = """
    import time
    import jax
    from minigrid.wrappers import AutoResetWrapper

    def run(length):
        env = AutoResetWrapper(make("MiniGrid-Empty-8x8-v0"))
        actions = jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)
        start = time.perf_counter()
        for action in actions:
            timestep = env.step(action)
        return time.perf_counter() - start

    print(run(1000))
    """
    assert "LB114" in {c for c, _ in codes(source)}, codes(source)

# --- 418: an eager loop in a helper the script calls once, outside its timings -----------------------------------
SET_UP = """
import time
import timeit
import jax
import jax.numpy as jnp


def blocks_of(mask, bm):
    nonzero = jnp.zeros(mask.shape[0] // bm)
    for i in range(mask.shape[0] // bm):
        block = mask[i * bm:(i + 1) * bm]
        nonzero = nonzero.at[i].set(jnp.any(block) * jnp.max(block))
    return nonzero


@jax.jit
def kernel(x, blocks):
    return x @ x + blocks.sum()


mask = jnp.tril(jnp.ones((512, 512)))
x = jnp.ones((512, 512))
{setup}
kernel(x, blocks).block_until_ready()
{timing}
"""
_PAIR = "t0 = time.perf_counter()\nkernel(x, blocks).block_until_ready()\nprint(time.perf_counter() - t0)"


@pytest.mark.parametrize(
    ("setup", "timing"),
    [
        ("blocks = blocks_of(mask, 64)", _PAIR),
        ("blocks = blocks_of(mask, 64)",  # the timing in a helper that returns what it times, as the Pallas page's
         "def bench(f):\n    def run(*a):\n        t = timeit.timeit(lambda: jax.block_until_ready(f(*a)), number=10)\n"
         "        return t / 10\n    return run\nprint(bench(kernel)(x, blocks))"),
        ("bm = 64\nblocks, other = blocks_of(mask, bm), None", _PAIR),  # in a tuple
    ],
)
def test_an_eager_loop_in_a_helper_called_once_outside_the_timings_is_set_up(setup, timing):
    source = SET_UP.format(setup=setup, timing=timing)
    assert "LB114" not in {c for c, _ in codes(source)}, codes(source)


def test_an_eager_helper_whose_results_are_the_examples_output_is_still_op_by_op():
    source = SET_UP.format(setup="blocks = blocks_of(mask, 64)\nseries = blocks_of(x, 32)\nplt.plot(series)",
                           timing=_PAIR.replace("blocks)", "jnp.ones(8))"))
    assert "LB114" in {c for c, _ in codes(source)}, codes(source)

def test_an_eager_set_up_helper_in_notebook_cells_is_set_up():
    helper, rest = SET_UP.split("mask = jnp.tril", 1)
    found = notebook_codes(helper, "mask = jnp.tril" + rest.format(setup="blocks = blocks_of(mask, 64)", timing=""),
                           _PAIR)
    assert "LB114" not in {c for c, _, _ in found}, found


@pytest.mark.parametrize(
    "setup",
    [
        "for bm in (32, 64):\n    blocks = blocks_of(mask, bm)",  # called in a loop
        "def prepare():\n    return blocks_of(mask, 64)\nblocks = prepare()",  # called from another function
        "blocks = blocks_of(mask, 64)\nmore = list(map(blocks_of, [mask], [64]))",  # handed on by name
    ],
)
def test_an_eager_helper_called_more_than_once_still_pays_per_call(setup):
    source = SET_UP.format(setup=setup, timing=_PAIR)
    assert "LB114" in {c for c, _ in codes(source)}, codes(source)


def test_an_eager_helper_called_inside_the_timing_is_still_reported():
    source = SET_UP.format(
        setup="blocks = blocks_of(mask, 64)",
        timing="t0 = time.perf_counter()\nb = blocks_of(mask, 64)\nkernel(x, b).block_until_ready()\n"
        "print(time.perf_counter() - t0)",
    )
    assert "LB114" in {c for c, _ in codes(source)}, codes(source)


# --- 452: a timing helper warmed where each caller hands it the function -----------------------------------------
HELPER = """
import time
{imports}
import numpy as np


def bench(fn, *args):
    times = []
    for _ in range(50):
        t0 = {clock}
        fn(*args).block_until_ready()
        times.append({clock} - t0)
    return sorted(times)[25]


def run_other():
    x = np.ones(3)
    bench(lambda v: Wrapped(np.sin(v)), x)


def run_jax():
    {decorator}
    def step(x):
        return x * 2.0

    x = jnp.ones(3)
    {warm}
    print(bench(step, x))


run_other()
run_jax()
"""


@pytest.mark.parametrize(
    ("imports", "decorator", "clock"),
    [
        ("import jax\nimport jax.numpy as jnp", "@jax.jit", "time.perf_counter()"),
        ("from jax import jit\nimport jax.numpy as jnp", "@jit", "time.monotonic()"),  # imported by name
        ("import jax as jx\nimport jax.numpy as jnp", "@jx.jit", "time.perf_counter_ns()"),  # aliased, another clock
    ],
)
def test_a_function_warmed_where_it_is_handed_to_a_shared_helper_is_warm(imports, decorator, clock):
    source = HELPER.format(imports=imports, decorator=decorator, clock=clock, warm="step(x).block_until_ready()")
    assert "LB103" not in {c for c, _ in codes(source)}, codes(source)


def test_a_function_handed_cold_to_a_shared_helper_is_still_timed_compiling():
    source = HELPER.format(imports="import jax\nimport jax.numpy as jnp", decorator="@jax.jit",
                           clock="time.perf_counter()", warm="pass")
    assert "LB103" in {c for c, _ in codes(source)}, codes(source)


def test_a_shared_helper_warmed_where_it_is_handed_in_notebook_cells():
    source = HELPER.format(imports="import jax\nimport jax.numpy as jnp", decorator="@jax.jit",
                           clock="time.perf_counter()", warm="step(x).block_until_ready()")
    helper, rest = source.split("def run_other", 1)
    found = notebook_codes(helper, "def run_other" + rest)
    assert "LB103" not in {c for c, _, _ in found}, found


def test_a_helper_run_on_another_function_first_does_not_warm_the_jitted_one():
    source = """
    import time
    import jax

    def run(df, label):
        start = time.perf_counter()
        [df(float(i)) for i in range(1000)]
        print(label, time.perf_counter() - start)

    def f(x):
        return x ** 2 + x

    @jax.jit
    def f_jit(x):
        return x ** 2 + x

    run(jax.grad(f), "jax")
    run(jax.grad(f_jit), "jax + jit")
    """
    assert "LB103" in {c for c, _ in codes(source)}, codes(source)
