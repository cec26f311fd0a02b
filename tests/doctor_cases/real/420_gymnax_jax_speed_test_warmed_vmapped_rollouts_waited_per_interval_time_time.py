# source: https://github.com/RobertTLange/gymnax/blob/0c7f6463efaeb3357c4e12e5a2c6ad85d4b2a308/benchmarks/jax_speed_test.py
# title: gymnax's `benchmarks/jax_speed_test.py`: a jitted, vmapped `lax.scan` Pendulum rollout of 200 episodes by a feed-forward policy, called once before the loop, then timed 200 times inside `run_speed_test_jax`, each interval a key split, the rollout and `out2.block_until_ready()` between two `time.time()` reads, the mean printed
# established-by: maintainer RobertTLange (the gymnax author's own speed benchmark; no issue discusses its timing)
# cause: The timing sits in a helper, `run_speed_test_jax`. It calls the jitted `network_rollouts` once before the loop with the same key shape and the same static `num_env_steps`, so no compile falls inside a timed interval (no LB103); every interval waits for the rollout with `out2.block_until_ready()` before the clock stops (no LB102); 200 intervals are averaged (no LB104); the two key splits inside each interval are glue around the compiled call (no LB114, the reading of 350's key split beside its timed `sample`), and no host array goes in or out (no LB115). The loop over episodes runs in `lax.scan` under `jit` (no LB106, no LB114), and `jax.jit` is applied once at module level (no LB111). What a correct doctor reports: the interval clock is `time.time()` (LB105, at the start read inside the loop, 410's and 388's reading). Noted, not labelled: the warm-up call's result is never waited for, so its execution can spill into the first interval, one of 200 (no code for it). Code: the file as stored at commit 0c7f646, unchanged (`jax_ffw_policy` is the benchmark folder's own policy module; `step`, `reset` and `env_params` are the globals set in the `__main__` block).
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB105:54
# first-sight: 858cce0 2026-12-06 py: found LB105:54; missed none; false none | notebook: found LB105:54; missed none; false none

import time
import jax
import jax.numpy as jnp
from jax import jit, vmap, lax
from jax_ffw_policy import init_ffw_policy, ffw_policy
from gymnax import make_env


def policy_step(state_input, tmp):
    """ lax.scan compatible step transition in jax env. """
    rng, obs, state, policy_params, env_params = state_input
    rng, rng_input = jax.random.split(rng)
    action = ffw_policy(policy_params, obs)
    next_o, next_s, reward, done, _ = step(rng_input, env_params,
                                           state, action)
    carry, y = [rng, next_o.squeeze(), next_s.squeeze(),
                policy_params, env_params], [reward]
    return carry, y


def policy_rollout(rng_input, policy_params, env_params, num_steps):
    """ Rollout a pendulum episode with lax.scan. """
    obs, state = reset(rng_input)
    scan_out1, scan_out2 = jax.lax.scan(policy_step,
                                        [rng_input, obs, state, policy_params, env_params],
                                        [jnp.zeros(num_steps)])
    return scan_out1, jnp.array(scan_out2)


network_rollouts = jit(vmap(policy_rollout, in_axes=(0, None, None, None),
                            out_axes=0), static_argnums=(3))


def run_speed_test_jax(rng, num_episodes=50, num_env_steps=200, num_evals=100):
    """ Evaluate the runtime of gymnax-based OpenAI environments. """
    rng, rng_input = jax.random.split(rng)
    network_params = init_ffw_policy(rng_input, sizes=[3, 64, 1])
    rollout_keys = jax.random.split(rng, num_episodes)
    out1, out2 = network_rollouts(rollout_keys, network_params,
                                  env_params, num_env_steps)

    times = []
    for e in range(num_evals):
        start_t = time.time()
        rng, rng_input = jax.random.split(rng)
        rollout_keys = jax.random.split(rng, num_episodes)
        out1, out2 = network_rollouts(rollout_keys, network_params,
                                      env_params, num_env_steps)
        out2.block_until_ready()
        times.append(time.time() - start_t)
    print(sum(times)/num_evals)
    return


if __name__ == "__main__":
    env_names = ["Pendulum-v0 "]
    for env_name in env_names:
        rng = jax.random.PRNGKey(0)
        reset, step, env_params = make_env(env_name)
        run_speed_test_jax(rng, num_episodes=200, num_env_steps=200,
                           num_evals=200)
