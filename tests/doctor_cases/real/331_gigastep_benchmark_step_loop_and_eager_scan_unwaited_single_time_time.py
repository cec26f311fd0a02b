# source: https://github.com/mlech26l/gigastep/blob/059b6ac84a3f1a1c395a7c607cf0f230e3221736/examples/benchmark.py
# title: Gigastep `examples/benchmark.py`: agent steps per second of a batched multi-agent environment, a Python step loop ('no jit') and a `lax.scan` rollout ('jit') each timed once between two `time.time()` reads, neither waiting for the rollout it dispatched
# established-by: maintainer mlech26l (the repository's throughput benchmark for its published steps-per-second figures)
# cause: Both timed functions return nothing: `run_n_steps` dispatches 300 calls of the environment's jitted, vmapped `v_step` (with eager `jax.random` splits between them) and `run_n_steps2` dispatches one `jax.lax.scan` over the same step, and neither the final states nor the scan's output is waited for, so each clock stops when the work has been queued (LB102, at the two timed calls); the 'no jit' rollout's queue can also still be running when the 'jit' clock starts. Each figure is one sample of one run (LB104, at the first statement inside each clock pair), and the 'jit' one is cold: `run_n_steps2` is never called before its timing, so the scan over the closure `policy_step` is traced and compiled inside it (an eager `lax.scan`, JAX's own compile, not a function the file jits: case 197's reading, LB104's 'unwarmed', no LB103). Both intervals are read with `time.time()` (LB105, at the two start reads). The eager Python step loop is the script's deliberate 'no jit' baseline against the scan (cases 242 and 279: no LB114). No issue discusses the script; the readings are the catalogue's. Code: the file as stored at commit 059b6ac, unchanged.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (neither timed rollout is waited for; not discussed), LB104 (one sample per figure, the scan's cold; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:94/97, LB104:94/97, LB105:93/96
# first-sight: de40b29 2026-12-06 py: found LB105:93 LB104:94 LB105:96 LB102:97; missed none; false LB114:27 LB111:59 | notebook: found LB105:93 LB104:94 LB105:96 LB102:97; missed none; false LB114:27 LB111:59

import argparse
import time

import jax
import jax.numpy as jnp
from gigastep import GigastepEnv
import time
import time


def run_n_steps(env, batch_size, n_steps):
    rng = jax.random.PRNGKey(1)
    rng, key = jax.random.split(rng, 2)
    key = jax.random.split(key, batch_size)
    states, obs = env.v_reset(key)
    n_agents = states[0]["x"].shape[1]
    for i in range(n_steps):
        rng, key = jax.random.split(rng, 2)

        actions = jax.random.uniform(
            key, shape=(batch_size, n_agents, 3), minval=-1, maxval=1
        )
        rng, key = jax.random.split(rng, 2)
        key = jax.random.split(key, batch_size)
        states, obs, r, a, d = env.v_step(states, actions, key)


def run_n_steps2(env, batch_size, n_steps):
    rng = jax.random.PRNGKey(1)
    rng, key = jax.random.split(rng, 2)
    key = jax.random.split(key, batch_size)
    states, obs = env.v_reset(key)
    n_agents = states[0]["x"].shape[1]

    def policy_step(state_carry, tmp):
        states, rng = state_carry
        rng, key = jax.random.split(rng, 2)
        actions = jax.random.uniform(
            key, shape=(batch_size, n_agents, 3), minval=-1, maxval=1
        )
        rng, key = jax.random.split(rng, 2)
        key = jax.random.split(key, batch_size)
        states, obs, r, a, d = env.v_step(states, actions, key)

        carry = [states, rng]
        return carry, []

    # Scan over episode step loop
    _, scan_out = jax.lax.scan(policy_step, [states, rng], [], length=n_steps)


def print_step_per_second(step_per_second):
    postfix = ""
    orig_step_per_second = step_per_second
    if step_per_second > 1e9:
        postfix = "G"
        step_per_second = step_per_second / 1e9
    elif step_per_second > 1e6:
        postfix = "M"
        step_per_second = step_per_second / 1e6
    elif step_per_second > 1e3:
        postfix = "k"
        step_per_second = step_per_second / 1e3
    print(f"{step_per_second:0.1f}{postfix} steps per second", end=" ")
    sec_to_100M = 100_000_000 / orig_step_per_second
    if sec_to_100M >= 60:
        print(f" (time to 100M steps: {sec_to_100M/60:0.1f} minutes)", end="")
    else:
        print(f" (time to 100M steps: {sec_to_100M:0.1f} seconds)", end="")
    print()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch_size", default=1024, type=int)  # in minutes
    parser.add_argument("--n_agents", default=8, type=int)  # in minutes
    parser.add_argument("--n_steps", default=300, type=int)  # in minutes
    parser.add_argument("--obs_type", default="rgb")  # in minutes
    args = parser.parse_args()
    env = GigastepEnv(n_agents=args.n_agents, obs_type=args.obs_type)
    run_n_steps(env, args.batch_size, 10)

    nojit_start = time.time()
    run_n_steps(env, args.batch_size, args.n_steps)
    nojit_time = time.time()
    jit_start = time.time()
    run_n_steps2(env, args.batch_size, args.n_steps)
    jit_time = time.time()
    num_agent_steps = args.n_steps * args.batch_size * args.n_agents
    steps_per_seconds_nojit = num_agent_steps / (nojit_time - nojit_start)
    steps_per_seconds_jit = num_agent_steps / (jit_time - jit_start)
    print(
        f"Run {num_agent_steps:.0f} agent steps in {nojit_time - nojit_start:.1f} seconds (no jit)"
    )
    print_step_per_second(steps_per_seconds_nojit)
    print(
        f"Run {num_agent_steps:.0f} agent steps in {jit_time - jit_start:.1f} seconds (jit)"
    )
    print_step_per_second(steps_per_seconds_jit)


if __name__ == "__main__":
    main()
