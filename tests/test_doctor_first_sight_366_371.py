"""What cases 366-371 showed at first sight, mended in the shared model (mend32).

- `_regions.clock_read`: a clock reading scaled to a unit by a number (``time.time_ns() / 1000``,
  ``time.time() * 1e3``) is a reading of that clock; a pair of them times the code between them (case 366: LB105).
- LB114 (`_iteration.unstacks_a_jax_array`): a timed Python loop over a JAX array's elements indexes the array
  eagerly once per pass and hands the body a JAX array each time (case 367: a MiniGrid baseline stepping through
  ``jax.random.randint`` actions); a NumPy array, a list or ``.tolist()`` yields host values.
- LB114 (`_vocabulary.runs_a_timing`): a call of a local function that times its own work (a benchmark helper,
  directly or through another) runs that benchmark; its operations are counted where they run, not again in the loop
  that calls it (case 370: no LB114 at MaxText's loop over prefill lengths). A loop's own set-up operations still
  count (`test_doctor_one_fault_once`: the same set-up over data is op by op).
- LB111, one reading for both sides of case 371: a jit the user wrote and the code defeats is LB111 wherever the
  function around it is timed (083's reading), and ``jax.jit(optimizer.update)`` on an optimizer the function builds
  by a call is such a jit (`_a_new_objects_function`, 371:171); an eager lax loop over a fresh function, in a function
  one ``%time`` run calls once, compiles once as that call's first run (`_timed_once`, 331's reading: LB103's
  matter, timed on purpose on the page), not LB111 (371:397 and 371:524).
- LB102 (`_effects._waits_on_an_earlier_pass`, `_on_some_passes`): a wait after a loop on a value the loop binds only
  under a condition (``if step % 1000 == 0: state, logs = test_step(state, ...)``) waits for some pass, not the last;
  the work the later passes carry from one to the next is unwaited (case 359:128).
"""

from __future__ import annotations

import textwrap

import pytest

from levelbench.doctor import lint_source

from doctor_support import codes, lines, notebook_codes


# --- 366: a test-utilities helper timing each call with `time.time_ns() / 1000` ---------------------------------------
BENCHMARK_HELPER = """
{imports}
import jax

def benchmark(name, init_fn, fn, iter=100):
    state = init_fn(jax.random.PRNGKey(42))
    times = []
    for i in range(iter):
        t = {start}
        out = fn(state)
        out.block_until_ready()
        times.append(({end}) - t)
    return times
"""


@pytest.mark.parametrize(
    ("imports", "start", "end"),
    [
        ("import time", "time.time_ns() / 1000", "time.time_ns() / 1000"),
        ("import time", "time.time() * 1e3", "time.time() * 1e3"),
        ("import time", "1000 * time.time()", "1000 * time.time()"),
        ("import time as tm", "tm.time_ns() // 1_000_000", "tm.time_ns() // 1_000_000"),
        ("from time import time_ns as now_ns", "now_ns() / 1e3", "now_ns() / 1e3"),
    ],
)
def test_a_scaled_wall_clock_reading_times_the_pair(imports, start, end):
    assert lines(codes(BENCHMARK_HELPER.format(imports=imports, start=start, end=end)), "LB105") == {9}


def test_a_scaled_wall_clock_read_into_a_name_of_its_own():
    source = BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="t1").replace(
        "        times.append", "        t1 = time.time_ns() / 1000\n        times.append"
    )
    assert lines(codes(source), "LB105") == {9}


def test_a_scaled_steady_clock_reading_is_no_wall_clock():
    source = BENCHMARK_HELPER.format(
        imports="import time", start="time.perf_counter_ns() / 1000", end="time.perf_counter_ns() / 1000"
    )
    assert lines(codes(source), "LB105") == set()


def test_a_scaled_wall_clock_reading_in_a_notebook_helper_cell():
    cell = BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="time.time_ns() / 1000")
    use = "benchmark('step', lambda k: k, lambda s: s)"
    assert {(c, cell_, line) for c, cell_, line in notebook_codes(cell, use) if c == "LB105"} == {("LB105", 1, 8)}


def test_the_fix_of_a_scaled_wall_clock_keeps_the_scale():
    source = textwrap.dedent(
        BENCHMARK_HELPER.format(imports="import time", start="time.time_ns() / 1000", end="time.time_ns() / 1000")
    )
    (finding,) = [d for d in lint_source(source, "bench.py") if d.code == "LB105"]
    assert finding.fix is not None and len(finding.fix.edits) == 2
    assert {e.text for e in finding.fix.edits} == {"time.perf_counter_ns"}


# --- 367: a timed Python loop over the elements of a JAX array ---------------------------------------------------------
ENV_LOOP = """
import time
{imports}

def run(env, length):
    actions = {actions}

    def unroll():
        for action in {iterated}:
            out = env.step(action)
        return out

    start = {clock}()
    unroll()
    return {clock}() - start

print(run(make_env(), 1000))
"""


@pytest.mark.parametrize(
    ("imports", "actions", "iterated", "clock"),
    [
        ("import jax", "jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)", "actions", "time.perf_counter"),
        ("import jax.random as jr", "jr.randint(jr.PRNGKey(0), (length,), 0, 7)", "actions", "time.perf_counter"),
        ("import jax.numpy as jnp", "jnp.arange(length) % 7", "actions", "time.monotonic"),
        ("import jax.numpy as jnp", "jnp.zeros(length, dtype=jnp.int32)", "actions[1:]", "time.perf_counter"),
    ],
)
def test_a_timed_loop_over_a_jax_arrays_elements_is_dispatch(imports, actions, iterated, clock):
    source = ENV_LOOP.format(imports=imports, actions=actions, iterated=iterated, clock=clock)
    assert lines(codes(source), "LB114") == {9}


@pytest.mark.parametrize(
    ("imports", "actions", "iterated"),
    [
        ("import numpy as np", "np.random.randint(0, 7, size=length)", "actions"),
        ("import jax", "jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)", "actions.tolist()"),
        ("import jax\nimport numpy as np", "jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)",
         "np.asarray(actions)"),
        ("import jax.numpy as jnp", "[jnp.int32(i % 7) for i in range(length)]", "actions"),
    ],
)
def test_a_timed_loop_over_host_values_is_no_dispatch(imports, actions, iterated):
    source = ENV_LOOP.format(imports=imports, actions=actions, iterated=iterated, clock="time.perf_counter")
    assert lines(codes(source), "LB114") == set()


def test_an_untimed_loop_over_a_jax_array_is_not_reported_for_its_indexing():
    source = ENV_LOOP.format(
        imports="import jax", actions="jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)",
        iterated="actions", clock="time.perf_counter",
    ).replace("    unroll()\n", "    pass\n")
    assert lines(codes(source), "LB114") == set()


def test_a_loop_over_a_jax_array_in_a_time_cell():
    found = notebook_codes(
        "import jax\nactions = jax.random.randint(jax.random.PRNGKey(0), (1000,), 0, 7)",
        "%%time\nfor action in actions:\n    out = env.step(action)\nprint(out)",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB114"} == {("LB114", 2, 2)}


def test_a_comprehension_over_a_jax_array_timed_by_timeit():
    source = """
    import timeit
    import jax.numpy as jnp

    xs = jnp.arange(1000)
    print(timeit.timeit(lambda: [handle(x) for x in xs], number=10))
    """
    assert lines(codes(source), "LB114") == {6}


# --- 370: a loop over settings calling benchmark helpers that time their own work ---------------------------------------
SWEEP_OF_BENCHMARKS = """
import {clock_module}
import jax

def bench_loop(engine, tokens, iters):
    start = {clock}()
    rng = jax.random.PRNGKey(0)
    for _ in range(iters):
        rng, sub = jax.random.split(rng)
        out = engine.prefill(tokens, rng=sub)
    jax.block_until_ready(out)
    return {clock}() - start

def bench(engine, tokens, iters):
    rng = jax.random.PRNGKey(0)
    for _ in range(2):
        rng, sub = jax.random.split(rng)
        out = engine.prefill(tokens, rng=sub)
    jax.block_until_ready(out)
    return {inner}(engine, tokens, iters)

run_bench = bench

def main(engine, lengths, iters):
    tokens = {{n: engine.tokens(n) for n in lengths}}
    results = {{}}
    for length in lengths:
        results[length] = {outer}(engine, tokens[length], iters)
        results[length, "size"] = tokens[length].size
    return results

main(make_engine(), [int(n) for n in "128,256,512".split(",")], 10)
"""


@pytest.mark.parametrize(
    ("clock_module", "clock", "inner", "outer"),
    [
        ("datetime", "datetime.datetime.now", "bench_loop", "bench"),
        ("time", "time.perf_counter", "bench_loop", "bench"),
        ("time", "time.perf_counter", "bench_loop", "bench_loop"),
        ("time", "time.perf_counter", "bench_loop", "run_bench"),
    ],
)
def test_a_loop_over_settings_running_benchmark_helpers_counts_none_of_their_operations(clock_module, clock, inner, outer):
    source = SWEEP_OF_BENCHMARKS.format(clock_module=clock_module, clock=clock, inner=inner, outer=outer)
    assert lines(codes(source), "LB114") == set()


def test_a_loop_over_settings_with_set_up_of_its_own_beside_benchmark_helpers_is_still_op_by_op():
    source = SWEEP_OF_BENCHMARKS.format(clock_module="time", clock="time.perf_counter", inner="bench_loop",
                                        outer="bench").replace(
        '        results[length, "size"] = tokens[length].size\n',
        '        key = jax.random.split(jax.random.PRNGKey(length))\n'
        '        results[length, "keys"] = jax.random.uniform(key[0]) + jax.random.uniform(key[1])\n')
    assert lines(codes(source), "LB114") == {27}


def test_a_loop_over_settings_running_an_untimed_helper_is_still_op_by_op():
    source = SWEEP_OF_BENCHMARKS.format(clock_module="time", clock="time.perf_counter", inner="bench_loop",
                                        outer="bench").replace("    start = time.perf_counter()\n", "").replace(
        "    return time.perf_counter() - start\n", "    return out\n")
    assert lines(codes(source), "LB114") == {26}


# --- 371: a jit of a function held by an object built per call; an eager scan in a function one %%time cell runs ------
FIT_CELL = """
import jax
{imports}

def fit(params, n_iter):
    {optimizer} = {build}
    opt_state = {optimizer}.init(params)
    update = jax.jit({optimizer}.update)
    for i in range(n_iter):
        grads = grad_fn(params)
        updates, opt_state = update(grads, opt_state, params)
        params = apply(params, updates)
    return params
"""


@pytest.mark.parametrize(
    ("imports", "optimizer", "build"),
    [
        ("import optax", "optimizer", "optax.chain(optax.scale_by_radam(), optax.scale(-1.0))"),
        ("import optax as ox", "tx", "ox.adam(1e-3)"),
        ("from optax import sgd", "opt", "sgd(0.1)"),
    ],
)
def test_a_jit_of_a_function_held_by_an_object_built_per_call_in_a_time_cell(imports, optimizer, build):
    found = notebook_codes(
        FIT_CELL.format(imports=imports, optimizer=optimizer, build=build),
        "%%time\nparams = jax.block_until_ready(fit(params0, 1000))",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB111"} == {("LB111", 1, 7)}


def test_a_jit_of_a_function_held_by_an_object_built_per_call_timed_by_a_clock_pair():
    source = FIT_CELL.format(imports="import optax\nimport time", optimizer="optimizer", build="optax.adam(1e-3)")
    source += "\nt0 = time.perf_counter()\nout = jax.block_until_ready(fit(p0, 100))\nprint(time.perf_counter() - t0)\n"
    assert lines(codes(source), "LB111") == {9}


def test_a_jit_of_a_function_held_by_the_callers_object_is_not_fresh():
    source = FIT_CELL.format(imports="import optax", optimizer="optimizer", build="optax.adam(1e-3)").replace(
        "def fit(params, n_iter):\n    optimizer = optax.adam(1e-3)\n", "def fit(params, n_iter, optimizer):\n"
    )
    found = notebook_codes(source, "%%time\nparams = jax.block_until_ready(fit(params0, 1000, optax.adam(1e-3)))")
    assert {(c, cell, line) for c, cell, line in found if c == "LB111"} == set()


def test_a_jit_of_a_function_held_by_an_object_built_from_the_parameters_is_the_callers_configuration():
    source = FIT_CELL.format(imports="import optax", optimizer="optimizer", build="optax.adam(lr)").replace(
        "def fit(params, n_iter):", "def fit(params, n_iter, lr):"
    )
    found = notebook_codes(source, "%%time\nparams = fit(params0, 1000, 1e-3)\nparams = fit(params0, 1000, 1e-2)")
    assert {(c, cell, line) for c, cell, line in found if c == "LB111"} == set()


SCAN_FIT = """
import jax
{imports}

def fit(state, n_iter):
    def step(carry, _):
        return update_fn(carry), loss_fn(carry)

    carry, losses = {scan}(step, state, jnp.arange(n_iter))
    return losses
"""


@pytest.mark.parametrize(
    ("imports", "scan"),
    [
        ("import jax.numpy as jnp", "jax.lax.scan"),
        ("import jax.numpy as jnp\nfrom jax import lax", "lax.scan"),
        ("import jax.numpy as jnp\nfrom jax.lax import scan as run_scan", "run_scan"),
    ],
)
def test_an_eager_scan_in_a_function_one_time_cell_runs_compiles_once(imports, scan):
    found = notebook_codes(
        SCAN_FIT.format(imports=imports, scan=scan), "%%time\nlosses = jax.block_until_ready(fit(state0, 1000))"
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB111"} == set()


def test_an_eager_scan_in_a_function_timeit_repeats_compiles_every_run():
    found = notebook_codes(
        SCAN_FIT.format(imports="import jax.numpy as jnp", scan="jax.lax.scan"),
        "%timeit jax.block_until_ready(fit(state0, 1000))",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB111"} == {("LB111", 1, 8)}


# --- 359: a timed training loop whose only wait reads a value of some pass, not the last --------------------------------
TRAIN_LOOP = """
import jax
{imports}

@jax.jit
def train_step(state, batch):
    return state - 0.1 * batch

@jax.jit
def test_step(state, batch):
    return state, {{"loss": (state * batch).sum()}}

def main(state, batches, x):
    t0 = {clock}()
    for step, batch in enumerate(batches):
        state = train_step(state, batch)
{test}
    {wait}
    return {clock}() - t0

main(jax.numpy.ones(3), [jax.numpy.ones(3)] * 100, jax.numpy.ones(3))
"""
SOME_PASSES = "        if step % 10 == 0:\n            state, logs = test_step(state, x)"
EVERY_PASS = "        state, logs = test_step(state, x)"


@pytest.mark.parametrize(
    ("imports", "clock", "wait"),
    [
        ("from time import time", "time", "print(f\"final loss: {logs['loss']}\")"),
        ("import time", "time.perf_counter", "jax.block_until_ready(logs)"),
        ("import time", "time.monotonic", "loss = float(logs['loss'])"),
        ("import timeit", "timeit.default_timer", "logs['loss'].block_until_ready()"),
    ],
)
def test_a_wait_on_a_value_of_some_pass_leaves_the_last_passes_unwaited(imports, clock, wait):
    source = TRAIN_LOOP.format(imports=imports, clock=clock, test=SOME_PASSES, wait=wait)
    assert lines(codes(source), "LB102") == {16}


@pytest.mark.parametrize(
    ("test", "wait"),
    [
        (EVERY_PASS, "print(f\"final loss: {logs['loss']}\")"),
        (SOME_PASSES, "jax.block_until_ready(state)"),
        (SOME_PASSES, "print(f\"final loss: {logs['loss']}\", float(state.sum()))"),
    ],
)
def test_a_wait_on_the_last_pass_waits_for_the_loop(test, wait):
    source = TRAIN_LOOP.format(imports="import time", clock="time.perf_counter", test=test, wait=wait)
    assert lines(codes(source), "LB102") == set()


def test_a_wait_on_a_value_of_some_pass_in_a_time_cell():
    found = notebook_codes(
        TRAIN_LOOP.split("def main")[0] + "state, batches, x = jax.numpy.ones(3), [jax.numpy.ones(3)] * 100, jax.numpy.ones(3)",
        "%%time\nfor step, batch in enumerate(batches):\n    state = train_step(state, batch)\n"
        "    if step % 10 == 0:\n        state, logs = test_step(state, x)\nprint(logs['loss'])",
    )
    assert {(c, cell, line) for c, cell, line in found if c == "LB102"} == {("LB102", 2, 3)}
