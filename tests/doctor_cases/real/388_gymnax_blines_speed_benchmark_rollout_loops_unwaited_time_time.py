# source: https://github.com/RobertTLange/gymnax-blines/blob/c7dd018da02bbfcc9bfaa00e9b096152d6831f04/utils/benchmark.py
# title: gymnax-blines `utils/benchmark.py`: the environment-speed helpers behind gymnax's published step-time figures, gymnax rollouts (random and MLP policy) against NumPy gym environments, each a `time.time()` pair around a loop of rollouts until `num_env_steps` are collected
# established-by: maintainer RobertTLange (gymnax's author; the speed benchmark of gymnax's baselines repository, run by its `speed.py` ten times per configuration)
# cause: The two gymnax helpers warm the rollout up with one untimed call (`RolloutWrapper.single_rollout` / `batch_rollout` are `jax.jit`-decorated in gymnax, so the compile stays outside the clock), then time a loop that dispatches one rollout per pass and throws it away (`_ = rollout_fn(...)`): nothing is ever waited for, neither in the loop nor before `time.time() - start_t` (the warm-up's outputs are read only for their `.shape`, which does not wait either), so each figure is the time to queue the rollouts, not to run them (LB102, at the two timed calls in the loops; inferred). All four helpers read their interval with `time.time()` (LB105, at the four start reads; inferred, the corpus's reading of `time.time()` as the interval clock). Each clock pair encloses a loop of many rollouts and `speed.py` repeats every helper over ten seeds and reports mean and standard deviation, so no single-sample finding (no LB104). The NumPy baselines run gym environments on the host; the MLP-policy one calls a warmed `jax.jit` policy per step on the environment's NumPy observations and waits for it through `action.tolist()`, which is the pipeline being measured (host environment, JAX policy), not an accidental copy (no LB115); the eager `jax.random.split` calls beside the jitted rollout are key handling, the reading of case 331 (no LB114). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit c7dd018, unchanged.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (the rollouts in both timed gymnax loops are never waited for; not discussed), LB105 (`time.time()` as the interval clock in all four helpers; not discussed)
# lines: LB102:51/94, LB105:46/89/104/135
# first-sight: 35efc1f 2026-12-06 py: found LB105:46 LB105:89 LB105:135; missed LB102:51/94; false LB102:50 LB102:93 LB115:148 | notebook: found LB105:46 LB105:89 LB105:135; missed LB102:51/94; false LB102:50 LB102:93 LB115:148

import jax
import time
import numpy as np
from gymnax.experimental import RolloutWrapper
from utils.vec_env.wrapper import make_parallel_env


def speed_gymnax_random(env_name, num_env_steps, num_envs, rng, env_kwargs):
    """Random episode rollout in gymnax."""
    # Define rollout manager for env
    if env_name == "Freeway-MinAtar":
        env_params = {"max_steps_in_episode": 1000}
    else:
        env_params = {}
    manager = RolloutWrapper(
        None, env_name=env_name, env_params=env_params, env_kwargs=env_kwargs
    )

    # Multiple rollouts for same network (different rng, e.g. eval)
    rng, rng_batch = jax.random.split(rng)
    rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
    if num_envs == 1:
        rollout_fn = manager.single_rollout
        obs, action, reward, next_obs, done, cum_ret = rollout_fn(
            rng_batch_eval, None
        )
        steps_per_batch = obs.shape[0]
    else:
        rollout_fn = manager.batch_rollout
        obs, action, reward, next_obs, done, cum_ret = rollout_fn(
            rng_batch_eval, None
        )
        steps_per_batch = obs.shape[0] * obs.shape[1]
    step_counter = 0

    start_t = time.time()
    # Loop over batch/single episode rollouts until steps are collected
    while step_counter < num_env_steps:
        rng, rng_batch = jax.random.split(rng)
        rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
        _ = rollout_fn(rng_batch_eval, None)
        step_counter += steps_per_batch
    return time.time() - start_t


def speed_gymnax_network(
    env_name, num_env_steps, num_envs, rng, model, model_params, env_kwargs
):
    """MLP episode rollout in gymnax."""
    # Define rollout manager for env
    if env_name == "Freeway-MinAtar":
        env_params = {"max_steps_in_episode": 1000}
    else:
        env_params = {}
    manager = RolloutWrapper(
        model.apply,
        env_name=env_name,
        env_params=env_params,
        env_kwargs=env_kwargs,
    )

    # Multiple rollouts for same network (different rng, e.g. eval)
    rng, rng_batch = jax.random.split(rng)
    rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
    if num_envs == 1:
        rollout_fn = manager.single_rollout
        obs, action, reward, next_obs, done, cum_ret = rollout_fn(
            rng_batch_eval, model_params
        )
        steps_per_batch = obs.shape[0]
    else:
        rollout_fn = manager.batch_rollout
        obs, action, reward, next_obs, done, cum_ret = rollout_fn(
            rng_batch_eval, model_params
        )
        steps_per_batch = obs.shape[0] * obs.shape[1]
    step_counter = 0

    start_t = time.time()
    # Loop over batch/single episode rollouts until steps are collected
    while step_counter < num_env_steps:
        rng, rng_batch = jax.random.split(rng)
        rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
        _ = rollout_fn(rng_batch_eval, model_params)
        step_counter += steps_per_batch
    return time.time() - start_t


def speed_numpy_random(env_name, num_env_steps, num_envs):
    """Random episode rollout in numpy."""
    envs = make_parallel_env(env_name, seed=0, n_rollout_threads=num_envs)
    envs.reset()
    num_batch_steps = int(np.ceil(num_env_steps / num_envs))
    start_t = time.time()
    for i in range(num_batch_steps):
        action = [envs.action_space.sample() for e in range(num_envs)]
        obs, reward, done, _ = envs.step(action)
        # NOTE: Automatic reset taken care of by wrapper!
    return time.time() - start_t


def speed_numpy_network(
    env_name, num_env_steps, num_envs, rng, model, model_params
):
    """MLP episode rollout in numpy."""
    envs = make_parallel_env(env_name, seed=0, n_rollout_threads=num_envs)
    obs = envs.reset()
    num_batch_steps = int(np.ceil(num_env_steps / num_envs))

    if num_envs == 1:
        apply_fn = jax.jit(model.apply)
    else:
        apply_fn = jax.jit(jax.vmap(model.apply, in_axes=(None, 0, 0)))

    # Run once to compile apply function!
    rng, rng_batch = jax.random.split(rng)
    rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()
    if env_name in ["Pendulum-v1", "MountainCarContinuous-v0"]:
        action = apply_fn(model_params, obs, rng_batch_eval).reshape(
            num_envs, 1
        )
    else:
        action = apply_fn(model_params, obs, rng_batch_eval).reshape(num_envs)

    start_t = time.time()
    for i in range(num_batch_steps):
        rng, rng_batch = jax.random.split(rng)
        rng_batch_eval = jax.random.split(rng_batch, num_envs).squeeze()

        if env_name in ["Pendulum-v1", "MountainCarContinuous-v0"]:
            action = apply_fn(model_params, obs, rng_batch_eval).reshape(
                num_envs, 1
            )
        else:
            action = apply_fn(model_params, obs, rng_batch_eval).reshape(
                num_envs
            )
        obs, reward, done, _ = envs.step(action.tolist())
        # NOTE: Automatic reset taken care of by wrapper!
    return time.time() - start_t
