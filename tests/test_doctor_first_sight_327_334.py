"""What cases 327-334 showed at first sight, mended in the shared model (mend26).

- `_effects.synchronizes_cuda`: a function the file imports from its project and does not show, whose own name says it
  synchronizes (``synchronize_torch(device)``, ``cuda_sync()``), waits for CUDA (case 333: no LB116). A local def is
  still read through its body, so a helper that only syncs MPS does not count.
- `_effects.unawaited_jax`: ``jit_step(None, rng)`` then ``jax.block_until_ready(rng)`` waits on the key the step is
  handed, which the timed work never rebinds, not on the step's result (case 327: LB102 at the timed call).
- LB111 (`_timed_once`): an eager ``lax.scan`` over a closure, in a function called once and timed once, compiles
  once per process: a cold first call, not a compile repeated on every run (case 331). Run in a loop, called twice,
  or written at module level (a cell or console line run again in the same process), it is still reported.
- LB114 (`_a_handed_objects_step`): a loop that binds the results of a method of an object its function is handed,
  run on JAX values (``states, obs, ... = env.v_step(states, actions, key)``), runs that object's compiled step;
  the key splits around it are glue, as beside a step the file jits (cases 331 and 332).
- `Kinds`: a parameter that every call the file shows passes a NumPy array is a NumPy array (case 334: the timed
  JAX call in ``benchmark_gradient_descent_JAX(X.copy(), D, ...)`` copies it to the device, LB115).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def codes(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


TORCH_PASS = """
import time
import torch
import torchvision.models as models
{imports}

device = torch.device("cuda")
model = models.resnet18().to(device).eval()
inputs = torch.randn(8, 3, 224, 224)
start = {clock}()
with torch.no_grad():
    for _ in range(10):
        x = inputs.to(device, non_blocking=True)
        _ = model(x)
{sync}
elapsed = {clock}() - start
"""

SYNCS = (
    ("from utils.device import synchronize_torch", "synchronize_torch(device)"),
    ("from utils.device import synchronize_torch as wait_gpu", "wait_gpu(device)"),
    ("import utils.device as ud", "ud.synchronize_torch(device)"),
    ("from helpers import cuda_sync", "cuda_sync()"),
    ("from helpers import synchronize_torch\ndef finish(d):\n    synchronize_torch(d)", "finish(device)"),
)


def _lb116(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB116"}


def test_a_project_function_named_as_a_synchronize_waits_for_cuda():
    """jax-pytorch-h100-benchmark's torch pass (case 333): ``synchronize_torch(device)`` from the project's own
    ``utils.device`` before the clock stops."""
    for clock in ("time.perf_counter", "time.time"):
        for imports, sync in SYNCS:
            assert not _lb116(TORCH_PASS.format(imports=imports, sync=sync, clock=clock)), (imports, sync, clock)


def test_a_pass_without_the_synchronize_or_with_another_project_function_is_still_reported():
    assert _lb116(TORCH_PASS.format(imports="", sync="", clock="time.perf_counter")) == {14}
    assert _lb116(TORCH_PASS.format(imports="from utils.device import log_device", sync="log_device(device)",
                                    clock="time.perf_counter")) == {14}
    # a local helper is read through its body: one that only syncs MPS does not wait for CUDA
    local = "def sync_mps(d):\n    if d.type == 'mps':\n        torch.mps.empty_cache()"
    assert _lb116(TORCH_PASS.format(imports=local, sync="sync_mps(device)", clock="time.perf_counter")) == {16}


KEY_WAIT = """
import time
import jax
{imports}

def bench(step):
    rng = jax.random.PRNGKey(0)
    fast = jax.jit(step).lower(None, rng).compile()
    fast(None, rng)
    start = {clock}()
    for _ in range(100):
        {call}
        {wait}
    return {clock}() - start
"""

KEY_WAITS = (
    ("", "jax.block_until_ready(rng)"),
    ("", "rng.block_until_ready()"),
    ("from jax import block_until_ready as ready", "ready(rng)"),
)


def _lb102(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB102"}


def test_a_wait_on_the_key_the_step_is_handed_waits_for_nothing():
    """GenomicWeightsThesis's MJX bench (case 327): the result of the timed call is dropped; the wait blocks on its
    input key, ready before the clock started."""
    for clock in ("time.time", "time.perf_counter"):
        for imports, wait in KEY_WAITS:
            source = KEY_WAIT.format(imports=imports, clock=clock, call="fast(None, rng)", wait=wait)
            assert _lb102(source) == {12}, (imports, wait, clock)


def test_a_wait_on_the_result_or_on_a_rebound_value_is_still_a_wait():
    for call, wait in (
        ("out = fast(None, rng)", "jax.block_until_ready(out)"),
        ("rng = fast(None, rng)", "jax.block_until_ready(rng)"),
        ("rng = fast(None, rng)", "rng.block_until_ready()"),
        ("fast(None, rng)", "print(rng)"),  # a host copy: not this rule's reading
    ):
        source = KEY_WAIT.format(imports="", clock="time.perf_counter", call=call, wait=wait)
        assert not _lb102(source), (call, wait)


EAGER_SCAN = """
import time
import jax

def rollout(step, carry, n):
    def body(c, _):
        return step(c), None
    out, _ = jax.lax.scan(body, carry, None, length=n)
    return out

def main(step, carry):
    start = {clock}()
{timed}
    return {clock}() - start

if __name__ == "__main__":
    main(lambda c: c + 1, 0.0)
"""


def _lb111(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB111"}


def test_an_eager_scan_over_a_closure_timed_once_compiles_once():
    """Gigastep's 'jit' rollout (case 331): `run_n_steps2` runs its `lax.scan` over `policy_step` once, timed once."""
    for clock in ("time.time", "time.perf_counter"):
        for timed in ("    rollout(step, carry, 300)", "    out = rollout(step, carry, n=300)"):
            assert not _lb111(EAGER_SCAN.format(clock=clock, timed=timed)), (clock, timed)


def test_an_eager_scan_over_a_closure_run_again_is_still_reported():
    for timed in (
        "    for _ in range(5):\n        rollout(step, carry, 300)",  # in a loop
        "    rollout(step, carry, 300)\n    rollout(step, carry, 300)",  # twice
    ):
        assert _lb111(EAGER_SCAN.format(clock="time.perf_counter", timed=timed)) == {8}, timed
    module = "import time\nimport jax\nfrom jax import lax\n" + "".join(
        f"t = time.time()\nlax.while_loop(lambda x: x < 0, f, x0)\nprint(time.time() - t)\n" for _ in range(2)
    )
    assert _lb111(module) == {5, 8}  # the same statement timed twice (jax#587, case 130)


HANDED_STEP = """
import time
import jax
import jax.numpy as jnp

def rollout({env}, n_steps):
    rng = jax.random.PRNGKey(1)
    states, obs = {env}.reset(rng)
    for i in range(n_steps):
        rng, key = jax.random.split(rng, 2)
        actions = jax.random.uniform(key, shape=(4, 3))
        {step}
    return obs

def main(env):
    start = {clock}()
    jax.block_until_ready(rollout(env, 300))
    print({clock}() - start)

if __name__ == "__main__":
    from gigastep import GigastepEnv
    main(GigastepEnv(n_agents=4))
"""


def _lb114(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB114"}


def test_key_splits_around_a_handed_objects_step_are_glue():
    """Gigastep's step loops (cases 331, 332): `env.v_step` is the environment's jitted step, handed in."""
    for clock in ("time.time", "time.perf_counter"):
        for env, step in (
            ("env", "states, obs, r, a, d = env.v_step(states, actions, key)"),
            ("sim", "states, obs = sim.advance(states, actions=actions, key=key)"),
            ("world", "obs = world.step(states, actions, key)"),
        ):
            source = HANDED_STEP.format(env=env, step=step, clock=clock)
            assert not _lb114(source), (env, step, clock)


def test_a_loop_of_eager_operations_is_still_reported():
    for step in (
        "obs = jnp.tanh(actions) + jnp.sin(states)",  # no step at all
        "env.log(actions)",  # a method whose result the loop never uses: not the loop's step
        "obs = env.v_step(3, 4)",  # no JAX value handed to it
    ):
        source = HANDED_STEP.format(env="env", step=step, clock="time.perf_counter")
        assert _lb114(source) == {9}, step


GIVEN_NUMPY = """
import time
from timeit import timeit
import numpy as np
import jax
import jax.numpy as jnp

@jax.jit
def descent(X, D):
    return X - 0.01 * (X @ X.T - D) @ X

def bench(X, D):
{timed}

points = np.random.rand(10, 2)
distances = np.array(np.eye(10), dtype=np.float64)
descent(points, distances).block_until_ready()
bench({args})
bench({args})
"""

GIVEN_TIMINGS = (
    "    print(timeit(lambda: descent(X, D).block_until_ready(), number=10) / 10)",
    "    t0 = time.perf_counter()\n    descent(X, D).block_until_ready()\n    print(time.perf_counter() - t0)",
)


def _lb115(source: str) -> set[int]:
    return {line for code, line in codes(source) if code == "LB115"}


def test_numpy_arrays_every_caller_hands_in_are_copied_by_the_timed_jax_call():
    """gradi-mojo's `benchmark_gradient_descent_JAX(X.copy(), D, ...)` (case 334)."""
    for timed in GIVEN_TIMINGS:
        assert _lb115(GIVEN_NUMPY.format(timed=timed, args="points.copy(), distances")), timed


def test_a_parameter_some_caller_hands_a_jax_array_is_not_read_as_numpy():
    for timed in GIVEN_TIMINGS:
        assert not _lb115(GIVEN_NUMPY.format(timed=timed, args="jnp.asarray(points), jnp.asarray(distances)")), timed
        # handed on: its other callers are unseen
        handed = GIVEN_NUMPY.format(timed=timed, args="points.copy(), distances") + "runner = bench\n"
        assert not _lb115(handed), timed


def test_a_framework_function_named_sync_is_judged_by_what_it_is():
    """`torch_xla.sync()` runs PyTorch/XLA's graph; it is no CUDA wait, whatever its name."""
    source = TORCH_PASS.format(imports="import torch_xla", sync="torch_xla.sync()", clock="time.perf_counter")
    assert _lb116(source) == {14}
