"""A JAX library's object whose methods run as they are called (brax's, gymnax's environments), and a torch tensor
handed to JAX inside a timing.

- `levelbench.doctor._names.UNJITTED_LIBRARIES`: a method of an object such a library built (``env.step``), called in
  a Python loop that no jit covers, runs the library's whole function op by op: LB114 at the call. So does the
  ``update`` of jaxopt's stochastic solvers (`UNJITTED_UPDATES`), stepped by hand over data batches (jaxopt#101, case
  313). A full-batch solver's hand loop of ``update`` (jaxopt's convergence benchmarks, case 215) is not one, and
  neither is an object the file jits the method of.
- An optax update beside a jitted loss and gradient (optax#319, cases 025 and 312) is the optimiser run op by op, not
  glue around the compiled step: LB114 at the loop, naming the optimiser. A factory that returns ``jax.jit(f)`` gives
  a jitted function (`Facts._returned_jit`), so the gradient of its result is not "a function jitted elsewhere"
  called without its jit.
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
    assert not {code for code, _ in findings(jaxopt)} & {"LB114"}  # a full-batch solver's iterates, read one by one


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


SOLVER_LOOP = """
import jax
import jax.numpy as jnp
import optax
{imports}

def loss_fun(params, data):
    x, y = data
    return jnp.mean((x @ params - y) ** 2)

def batches():
    while True:
        yield jnp.ones((8, 3)), jnp.ones(8)

def train(params, train_ds, maxiter):
    solver = {maker}(opt=optax.adam(1e-3), fun=loss_fun, maxiter=maxiter)
    state = solver.init_state(params)
{loop}
    return params

train(jnp.zeros(3), batches(), 100)
"""

FOR_LOOP = """    for _ in range(maxiter):
        params, state = solver.update(params=params, state=state, data=next(train_ds))"""


def _lb114(source: str) -> set[int]:
    return {line for code, line in findings(source) if code == "LB114"}


def test_a_jaxopt_stochastic_solver_stepped_by_hand_runs_its_update_op_by_op():
    """jaxopt#101 (case 313): ``solver.update`` in a manual training loop, no jit: LB114 at the call, however the
    solver's class is imported, whatever loop steps it, and when a flag picks one of several stochastic solvers."""
    plain = SOLVER_LOOP.format(imports="from jaxopt import OptaxSolver", maker="OptaxSolver", loop=FOR_LOOP)
    assert _lb114(plain) == {19}
    aliased = SOLVER_LOOP.format(imports="import jaxopt as jo", maker="jo.OptaxSolver", loop=FOR_LOOP)
    assert _lb114(aliased) == {19}
    while_loop = FOR_LOOP.replace("for _ in range(maxiter):", "while state.iter_num < maxiter:")
    assert _lb114(SOLVER_LOOP.format(imports="import jaxopt", maker="jaxopt.OptaxSolver", loop=while_loop)) == {19}
    flagged = SOLVER_LOOP.replace(
        "    solver = {maker}(opt=optax.adam(1e-3), fun=loss_fun, maxiter=maxiter)\n",
        "    if maxiter > 10:\n        solver = jaxopt.OptaxSolver(opt=optax.adam(1e-3), fun=loss_fun)\n"
        "    else:\n        solver = jaxopt.PolyakSGD(fun=loss_fun, maxiter=maxiter)\n",
    ).format(imports="import jaxopt", loop=FOR_LOOP)
    assert _lb114(flagged) == {22}


def test_the_solver_s_jitted_update_is_quiet():
    jitted = FOR_LOOP.replace("solver.update(", "update(").replace(
        "    for _", "    update = jax.jit(solver.update)\n    for _")
    assert not _lb114(SOLVER_LOOP.format(imports="import jaxopt", maker="jaxopt.OptaxSolver", loop=jitted))


OPTAX_LOOP = """
import jax
import jax.numpy as jnp
import optax

def make_loss(x, y):
    def mse(params):
        return jnp.mean((x @ params - y) ** 2)
    return {returned}

def main():
    loss = make_loss(jnp.ones((20, 10)), jnp.ones(20))
    params = jnp.zeros(10)
    tx = optax.chain(optax.scale_by_adam(), optax.scale(-1e-2))
    opt_state = tx.init(params)
    loss_grad_fn = jax.value_and_grad(loss)
    for step in range(100):
        loss_val, grads = loss_grad_fn(params)
        updates, opt_state = tx.update(grads, opt_state)
        params = optax.apply_updates(params, updates)
        print(loss_val)

main()
"""


def test_an_optax_update_beside_a_jitted_gradient_is_the_optimiser_run_op_by_op():
    """optax#319 (cases 025, 312): the factory returns ``jax.jit(mse)``, so the gradient is one compiled program; the
    optimiser's update and ``apply_updates`` still dispatch one by one. LB114 at the loop names the optimiser, not the
    jitted loss as a function run without its jit."""
    for returned in ("jax.jit(mse)", "jax.jit(mse, donate_argnums=())"):
        diagnostics = [d for d in lint_source(textwrap.dedent(OPTAX_LOOP.format(returned=returned)), "bench.py")
                       if d.code == "LB114"]
        assert [d.location.line for d in diagnostics] == [17]
        assert "optimiser" in diagnostics[0].message and "jits elsewhere" not in diagnostics[0].message


def test_a_factory_that_returns_a_jit_gives_a_jitted_function():
    from levelbench.doctor._context import Context
    from levelbench.doctor._program import Program
    import ast

    source = textwrap.dedent(OPTAX_LOOP.format(returned="jax.jit(mse)"))
    ctx = Context.build(Program.from_python("bench.py", source), edits=False)
    call = next(n for n in ast.walk(ctx.program.module)
                if isinstance(n, ast.Call) and ast.unparse(n.func) == "loss_grad_fn")
    assert ctx.facts.calls_jax_callable(call)
    plain = source.replace("return jax.jit(mse)", "return mse")
    ctx = Context.build(Program.from_python("bench.py", plain), edits=False)
    call = next(n for n in ast.walk(ctx.program.module)
                if isinstance(n, ast.Call) and ast.unparse(n.func) == "loss_grad_fn")
    assert not ctx.facts.calls_jax_callable(call)


BURN_IN = """
import time
import jax
import jax.numpy as jnp
{imports}

def benchmark(state, data, num_steps):
    key = jax.random.PRNGKey(0)
    keys_dropout = jnp.ones((8, 2), dtype=jnp.uint32)
    t0 = {clock}()
    for k in range(num_steps):
        key, key_batch = jax.random.split(key)
        {body}
    jax.block_until_ready(state)
    print({clock}() - t0)

benchmark(None, None, 20)
"""


def test_one_key_split_beside_an_imported_step_is_not_what_the_loop_times():
    """gpt-jax's `bench.py` (case 325): the timed loop splits a key, then runs `train_step`, imported from the
    project's `train.py` (pmapped there): the step is the timed work, the split one dispatch beside it."""
    for imports, step in (("from train import train_step", "train_step"), ("import train as tr", "tr.train_step")):
        for clock in ("time.time", "time.perf_counter"):
            body = f"loss, state = {step}(state, key_batch, keys_dropout)"
            source = BURN_IN.format(imports=imports, clock=clock, body=body)
            assert not _lb114(source), (imports, clock)


def test_one_key_split_alone_in_a_timed_loop_is_still_dispatch_timed():
    alone = BURN_IN.format(imports="", clock="time.perf_counter", body="state = key_batch")
    assert _lb114(alone) == {11}
    host = BURN_IN.format(imports="import math", clock="time.perf_counter", body="state = math.floor(3.5)")
    assert _lb114(host) == {11}  # a standard-library call is no step
