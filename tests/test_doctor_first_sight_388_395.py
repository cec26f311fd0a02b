"""What cases 388-395 showed at first sight, mended in the shared model (mend34).

- `Facts.library_call`: a method of an object a class of a library written in JAX built is read the same way when it
  is called through a name bound to the bound method (``rollout_fn = manager.batch_rollout``, then
  ``_ = rollout_fn(keys, params)``), and gymnax's classes are such classes (``RolloutWrapper``, from one of
  `UNJITTED_LIBRARIES`): its result is JAX work, so an unwaited timed rollout is LB102 at the rollout, not at the key
  split that feeds it (case 388:51/94).
- LB115 (`_effects.feeds_a_host_step`): a JAX result read back for a host step of the loop whose result the loop's JAX
  work reads next (``obs, r, done, _ = envs.step(action.tolist())`` beside ``action = apply_fn(params, obs, k)``) is
  the pipeline timed, not a copy the timing could move out (no LB115 at 388:148).
- LB103 (`_handed_fresh`): a timing helper handed a jitted function its caller makes in the argument
  (``benchmark(jax.jit(partial(with_xla, use_file=True)))``) times that new object's first call: the finding goes where
  the wrapper is made and handed, once per such caller (case 392:73/75); a jitted function made elsewhere and handed by
  name or through a transform stays read at the helper's timed call (case 007:17).
- `_effects.runs_traced`: a wait inside a function a JAX transform runs (``jax.vmap(solve)(x)``, ``batched(x)`` of
  ``batched = jax.vmap(solve)``, ``jax.grad(...)``) sees tracers and waits for nothing (jax 0.10.2: same jaxpr with or
  without it), so it does not make the call a wait: the caller gets an array nothing waited for (LB102). Case 393's
  ``return jax.block_until_ready(...)`` inside ``@jax.jit`` was already read so (a jitted callee is never read for
  waits); what 393 still lacks is a timing harness made by a factory and handed on through a parameter.
"""

from __future__ import annotations

import pytest

from doctor_support import codes, lines, notebook_codes


# --- 388: gymnax rollouts through a bound method, timed and never waited for -------------------------------------------
GYMNAX_ROLLOUTS = """
import jax
import {clock_module}
{wrapper_import}

def speed(env_name, num_env_steps, num_envs, rng):
    manager = {wrapper}(None, env_name=env_name)
    rng, rng_batch = jax.random.split(rng)
    rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
    if num_envs == 1:
        rollout_fn = manager.single_rollout
    else:
        rollout_fn = manager.batch_rollout
    obs, action, reward, next_obs, done, cum_ret = rollout_fn(rng_batch_eval, None)
    steps_per_batch = obs.shape[0]
    step_counter = 0
    start_t = {clock}
    while step_counter < num_env_steps:
        rng, rng_batch = jax.random.split(rng)
        rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
        _ = rollout_fn(rng_batch_eval, None)
        step_counter += steps_per_batch
    return {clock} - start_t
"""


@pytest.mark.parametrize(
    ("clock_module", "clock", "wrapper_import", "wrapper"),
    [
        ("time", "time.time()", "from gymnax.experimental import RolloutWrapper", "RolloutWrapper"),
        ("time", "time.perf_counter()", "from gymnax.experimental import RolloutWrapper", "RolloutWrapper"),
        ("time as tm", "tm.perf_counter()", "from gymnax.experimental import RolloutWrapper as RW", "RW"),
        ("time", "time.perf_counter()", "import gymnax.experimental as gx", "gx.RolloutWrapper"),
    ],
)
def test_a_timed_rollout_through_a_bound_method_is_unwaited_at_the_rollout(
        clock_module, clock, wrapper_import, wrapper):
    source = GYMNAX_ROLLOUTS.format(clock_module=clock_module, clock=clock, wrapper_import=wrapper_import,
                                    wrapper=wrapper)
    assert lines(codes(source), "LB102") == {21}


def test_a_timed_rollout_called_on_the_object_is_unwaited_at_the_rollout():
    source = GYMNAX_ROLLOUTS.format(clock_module="time", clock="time.perf_counter()",
                                    wrapper_import="from gymnax.experimental import RolloutWrapper",
                                    wrapper="RolloutWrapper").replace(
        "_ = rollout_fn(rng_batch_eval, None)", "out = manager.batch_rollout(rng_batch_eval, None)")
    assert lines(codes(source), "LB102") == {21}


def test_a_waited_rollout_through_a_bound_method_is_quiet():
    source = GYMNAX_ROLLOUTS.format(clock_module="time", clock="time.perf_counter()",
                                    wrapper_import="from gymnax.experimental import RolloutWrapper",
                                    wrapper="RolloutWrapper").replace(
        "_ = rollout_fn(rng_batch_eval, None)", "jax.block_until_ready(rollout_fn(rng_batch_eval, None))")
    assert lines(codes(source), "LB102") == set()


def test_a_method_of_an_object_no_jax_library_built_stays_unread():
    source = GYMNAX_ROLLOUTS.format(clock_module="time", clock="time.perf_counter()",
                                    wrapper_import="from mytools import RolloutWrapper", wrapper="RolloutWrapper")
    assert 21 not in lines(codes(source), "LB102")


def test_a_timed_rollout_in_a_notebook_cell():
    setup = """
    import time
    import jax
    from gymnax.experimental import RolloutWrapper
    manager = RolloutWrapper(None, env_name="CartPole-v1")
    rollout = manager.batch_rollout
    keys = jax.random.split(jax.random.PRNGKey(0), 8)
    out = rollout(keys, None)
    """
    timed = """
    start = time.perf_counter()
    for _ in range(10):
        keys = jax.random.split(keys[0], 8)
        out = rollout(keys, None)
    print(time.perf_counter() - start)
    """
    found = notebook_codes(setup, timed)
    assert {(c, cell, line) for c, cell, line in found if c == "LB102"} == {("LB102", 2, 4)}


# --- 388: a NumPy gym environment fed by a jitted policy: the host step is the pipeline --------------------------------
HOST_ENVIRONMENT = """
import time
import jax
import numpy as np
from utils.vec_env.wrapper import make_parallel_env

def speed_numpy_network(env_name, num_batch_steps, num_envs, rng, model, model_params):
    envs = make_parallel_env(env_name, seed=0, n_rollout_threads=num_envs)
    obs = envs.reset()
    apply_fn = jax.jit(model.apply)
    action = apply_fn(model_params, obs, rng)
    jax.block_until_ready(action)
    start_t = time.perf_counter()
    for i in range(num_batch_steps):
        rng, rng_step = jax.random.split(rng)
        action = apply_fn(model_params, obs, rng_step).reshape(num_envs)
{step}
    return time.perf_counter() - start_t
"""


@pytest.mark.parametrize(
    "step",
    [
        "        obs, reward, done, _ = envs.step(action.tolist())",
        "        obs, reward, done, _ = envs.step(np.asarray(action))",
        "        host_action = np.asarray(action)\n        obs, reward, done, _ = envs.step(host_action)",
        "        obs, reward, done, _ = envs.step(actions=action.tolist())",
    ],
)
def test_a_copy_for_the_host_step_that_feeds_the_next_pass_is_no_lb115(step):
    assert lines(codes(HOST_ENVIRONMENT.format(step=step)), "LB115") == set()


@pytest.mark.parametrize(
    "step",
    [
        "        log.append(action.tolist())",  # kept for later: nothing the loop's JAX work reads comes back
        "        reward = envs.score(np.asarray(action))",  # a host result no JAX work of the loop reads
    ],
)
def test_a_copy_whose_host_use_feeds_no_jax_work_stays_lb115(step):
    source = HOST_ENVIRONMENT.format(step=step).replace("    start_t =", "    log = []\n    start_t =")
    assert 17 in lines(codes(source), "LB115") or 18 in lines(codes(source), "LB115")


# --- 392: a sound timing helper handed fresh jitted wrappers -------------------------------------------------------------
TIMING_HELPER = """
import timeit
from functools import partial
import jax
import jax.numpy as jnp

def with_xla(x, *, use_file):
    return jnp.linalg.inv(x) if use_file else jnp.linalg.pinv(x)

def benchmark(function):
    times = timeit.repeat(lambda: jax.block_until_ready(function(x)), repeat=5, number=3)
    print(f"mean: {sum(times) / len(times) / 3:.3f}s")

x = jax.random.normal(jax.random.key(0), shape=(100, 100))
benchmark(partial(with_xla, use_file=True))
{calls}
"""


@pytest.mark.parametrize(
    ("calls", "expected"),
    [
        ("benchmark(jax.jit(partial(with_xla, use_file=True)))\nbenchmark(jax.jit(partial(with_xla, use_file=False)))",
         {16, 17}),
        ("from jax import jit\nbenchmark(jit(partial(with_xla, use_file=True)))", {17}),
        ("compile_it = jax.jit\nbenchmark(compile_it(partial(with_xla, use_file=True)))", {17}),
        ("benchmark(function=jax.jit(partial(with_xla, use_file=False)))", {16}),
    ],
)
def test_a_fresh_jitted_function_handed_to_a_timing_helper_is_lb103_where_it_is_handed(calls, expected):
    assert lines(codes(TIMING_HELPER.replace("{calls}", calls)), "LB103") == expected


def test_a_fresh_jitted_function_handed_to_a_perf_counter_helper():
    source = TIMING_HELPER.replace("{calls}", "benchmark(jax.jit(partial(with_xla, use_file=True)))").replace(
        "    times = timeit.repeat(lambda: jax.block_until_ready(function(x)), repeat=5, number=3)\n",
        "    import time\n    start = time.perf_counter()\n    for _ in range(10):\n"
        "        jax.block_until_ready(function(x))\n    times = [time.perf_counter() - start]\n",
    )
    assert lines(codes(source), "LB103") == {20}


def test_a_jitted_function_made_elsewhere_and_handed_by_name_is_read_at_the_timed_call():
    # case 007's reading: `eval(jax.grad(f_jit), ...)`, the first run of a jitted function the caller did not make
    calls = "fast = jax.jit(partial(with_xla, use_file=True))\nbenchmark(fast)"
    assert lines(codes(TIMING_HELPER.replace("{calls}", calls)), "LB103") == {11}


def test_a_fresh_jitted_function_handed_in_another_notebook_cell():
    helper, _, rest = TIMING_HELPER.partition("x = jax.random")
    found = notebook_codes(helper, "x = jax.random" + rest.replace("{calls}", ""),
                           "benchmark(jax.jit(partial(with_xla, use_file=True)))")
    assert {(c, cell, line) for c, cell, line in found if c == "LB103"} == {("LB103", 3, 1)}


def test_each_fresh_jitted_wrapper_handed_compiles_again():
    calls = "benchmark(jax.jit(partial(with_xla, use_file=True)))\nbenchmark(jax.jit(partial(with_xla, use_file=True)))"
    assert lines(codes(TIMING_HELPER.replace("{calls}", calls)), "LB103") == {16, 17}


# --- 393: a wait inside a traced function waits for nothing ---------------------------------------------------------------
TRACED_WAIT = """
import timeit
import jax
import jax.numpy as jnp

def solve(tol):
    y = jnp.cumsum(jnp.ones(1000) * tol)
    return jax.block_until_ready(y)

{batched}

x = jnp.ones(8)
run(x)
times = timeit.repeat(lambda: run(x), number=1, repeat=10)
print(min(times))
"""


@pytest.mark.parametrize(
    "batched",
    [
        "def run(x):\n    return jax.vmap(solve)(x)",
        "batched = jax.vmap(solve)\n\ndef run(x):\n    return batched(x)",
        "from jax import vmap\n\ndef run(x):\n    return vmap(solve, in_axes=0)(x)",
        "def run(x):\n    return jax.grad(lambda t: solve(t).sum())(x)",
    ],
)
def test_a_wait_inside_a_transformed_function_does_not_wait_for_the_caller(batched):
    source = TRACED_WAIT.replace("{batched}", batched)
    timed_line = source[: source.index("times = ")].count("\n") + 1
    assert lines(codes(source), "LB102") == {timed_line}


def test_a_wait_inside_a_function_run_as_it_is_still_waits():
    assert lines(codes(TRACED_WAIT.replace("{batched}", "def run(x):\n    return solve(x)")), "LB102") == set()


def test_a_wait_inside_a_jitted_function_waits_for_nothing():
    source = TRACED_WAIT.replace("def solve(tol):", "@jax.jit\ndef solve(tol):").replace(
        "{batched}", "def run(x):\n    return solve(x)")
    assert lines(codes(source), "LB102") == {16}


def test_a_wait_inside_a_vmapped_function_timed_by_a_perf_counter_loop():
    source = TRACED_WAIT.replace("{batched}", "def run(x):\n    return jax.vmap(solve)(x)").replace(
        "times = timeit.repeat(lambda: run(x), number=1, repeat=10)\nprint(min(times))",
        "import time\nstart = time.perf_counter()\nfor _ in range(10):\n    out = run(x)\n"
        "print(time.perf_counter() - start)",
    )
    assert lines(codes(source), "LB102") == {18}


def test_a_wait_inside_a_vmapped_function_in_a_notebook():
    found = notebook_codes(
        "import timeit\nimport jax\nimport jax.numpy as jnp\n\ndef solve(tol):\n"
        "    return jax.block_until_ready(jnp.cumsum(jnp.ones(1000) * tol))\n\nbatched = jax.vmap(solve)",
        "x = jnp.ones(8)\nbatched(x)",
        "%timeit batched(x)",
    )
    assert {(c, cell) for c, cell, _ in found if c == "LB102"} == {("LB102", 3)}
