"""A JAX library's object whose methods run as they are called (brax's, gymnax's environments), and a torch tensor
handed to JAX inside a timing.

- `levelbench.doctor._names.UNJITTED_LIBRARIES`: a method of an object such a library built (``env.step``), called in
  a Python loop that no jit covers, runs the library's whole function op by op: LB114 at the call. A library that
  jits its entry points itself (jaxopt's solvers jit ``update``) is not one of them, and neither is an object the
  file jits the method of.
- A CUDA tensor whose value a timed region hands on to a JAX call (DLPack, brax's ``torch_to_jax``) is waited for by
  the JAX work that consumes it: the region's missing wait is JAX's (LB102), not torch's (LB116).
"""

from __future__ import annotations

import textwrap

from levelbench.doctor import lint_source


def findings(source: str) -> set[tuple[str, int]]:
    return {(d.code, d.location.line) for d in lint_source(textwrap.dedent(source), "bench.py")}


ROLLOUT = """
import jax
from brax import envs

env = envs.create("ant")
state = env.reset(jax.random.PRNGKey(0))
action = jax.numpy.zeros(env.action_size)
for _ in range(1000):
    state = {step}(state, action)
print(state.obs)
"""


def test_an_environment_stepped_in_a_python_loop_runs_its_physics_op_by_op():
    found = findings(ROLLOUT.format(step="env.step"))
    assert ("LB114", 9) in found


def test_the_same_loop_over_the_jitted_step_is_quiet():
    jitted = ROLLOUT.replace("for _ in", "step = jax.jit(env.step)\nfor _ in").format(step="step")
    assert not {code for code, _ in findings(jitted)} & {"LB114"}


def test_a_gymnax_environment_is_one_too_and_a_jaxopt_solver_is_not():
    gymnax = """
    import jax
    import gymnax

    env, params = gymnax.make("CartPole-v1")
    key = jax.random.PRNGKey(0)
    obs, state = env.reset(key, params)
    for t in range(500):
        obs, state, reward, done, _ = env.step(key, state, 0, params)
    print(reward)
    """
    assert ("LB114", 9) in findings(gymnax)
    jaxopt = """
    import jax.numpy as jnp
    import jaxopt

    solver = jaxopt.LBFGS(fun=lambda w: jnp.sum(w ** 2))
    params = jnp.ones(3)
    state = solver.init_state(params)
    for it in range(100):
        params, state = solver.update(params, state)
    print(state.error)
    """
    assert not {code for code, _ in findings(jaxopt)} & {"LB114"}  # jaxopt jits `update` itself


TIMED = """
import time
import torch
import jax
from brax import envs
from brax.io import torch as torch_interface

device = "cuda" if torch.cuda.is_available() else "cpu"
env = envs.create("ant")
state = env.reset(jax.random.PRNGKey(0))
t = time.perf_counter()
action = torch.rand([1, env.action_size], device=device)
{handed}
print(time.perf_counter() - t)
"""


def test_a_cuda_tensor_handed_to_jax_in_the_timing_is_waited_for_by_the_jax_work():
    handed = findings(TIMED.format(handed="state = env.step(state, torch_interface.torch_to_jax(action))"))
    assert ("LB102", 13) in handed and not {code for code, _ in handed} & {"LB116"}
    by_keyword = findings(TIMED.format(handed="state = env.step(state=state, action=torch_interface.torch_to_jax(action))"))
    assert not {code for code, _ in by_keyword} & {"LB116"}
    kept = findings(TIMED.format(handed="total = action.sum()"))
    assert "LB116" in {code for code, _ in kept}  # the tensor stays torch's: nothing waits for it


def test_storing_into_the_environment_or_keying_by_it_does_not_rebind_it():
    """``env.episode_length = 1000`` and ``returns[env] = 0.0`` store into ``env`` or read it: the name still holds what
    ``envs.create`` built, so the loop's ``env.step`` is the library's function run op by op."""
    attribute = ROLLOUT.replace('env = envs.create("ant")\n', 'env = envs.create("ant")\nenv.episode_length = 1000\n')
    assert ("LB114", 10) in findings(attribute.format(step="env.step"))
    keyed = ROLLOUT.replace('env = envs.create("ant")\n', 'env = envs.create("ant")\nreturns = dict()\nreturns[env] = 0.0\n')
    assert ("LB114", 11) in findings(keyed.format(step="env.step"))


def test_an_environment_unpacked_from_a_starred_target_is_still_the_library_s():
    """A tuple or list target binds each of its names, a starred one too: ``env, *rest = ...`` is as made by the call
    as ``env, params = ...``."""
    gymnax = """
    import jax
    import gymnax

    [env, *rest] = gymnax.make("CartPole-v1")
    key = jax.random.PRNGKey(0)
    obs, *state = env.reset(key, rest[0])
    for t in range(500):
        obs, state, reward, done, _ = env.step(key, state, 0, rest[0])
    print(reward)
    """
    assert ("LB114", 9) in findings(gymnax)
