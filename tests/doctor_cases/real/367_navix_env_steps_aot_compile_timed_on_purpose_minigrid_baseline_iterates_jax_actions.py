# source: https://github.com/epignatelli/navix/blob/fb660f87f2a862ca0a1bb64d2c036c8ca8304503/benchmarks/env_steps.py
# title: NAVIX `benchmarks/env_steps.py`: a million steps of a navix environment, compiled ahead of time with its compile timed on purpose, then run once and waited for, against the same million steps of the MiniGrid environment in a Python loop over an action array drawn with `jax.random.randint`, each run printed five times over
# established-by: maintainer epignatelli (NAVIX's own environment-speed benchmark; no issue discusses its timing)
# cause: The NAVIX side is sound. `collect_experience` runs the steps in a `lax.scan`; `run_navix` lowers and compiles it with `.lower(...).compile()` between its own `perf_counter` reads and prints that as the compile time (a compile timed on purpose: no LB103, no LB104), then times one call of the compiled executable and waits for it with `timestep.t.block_until_ready()` (no LB102); `main` calls `run_navix` five times and each pass prints its figure (an interval printed on every pass of a loop, no LB104: the reading of case 223). The compile again on each of the five passes is timed apart from the run, on purpose, so no LB111 is labelled. The MiniGrid baseline is what a correct doctor reports, by the catalogue: its actions are a JAX array (`jax.random.randint(...)`), and the timed `unroll_minigrid` iterates it in a Python loop and hands each 0-d JAX array to MiniGrid's `env.step`, whose `action == self.actions.left`-style comparisons and `if` tests are eager JAX operations, each dispatched on its own and read back to the host, a million times inside the baseline's figure (LB114, at the loop's `env.step` call; the loop header's iteration of the array unstacks it eagerly too). So the NAVIX speed-up is measured against a baseline that pays JAX's per-op dispatch. `time.perf_counter` throughout (no LB105). Code: the file at commit fb660f8, with the `NAVIX_TO_MINIGRID` table cut from 31 entries to the 4 first (the script uses `Navix-Empty-5x5-v0`).
# static: LB114
# dynamic: n/a
# inferred: LB114 (a JAX action array iterated and handed to a non-JAX environment in the timed Python loop; not discussed)
# lines: LB114:96/97
# first-sight: c16c112 2026-12-06 py: found none; missed LB114:96/97; false none | notebook: found none; missed LB114:96/97; false none

# %%
from dataclasses import dataclass
import os
import time
import json
from typing import Tuple

import gymnasium as gym
from gymnasium.wrappers.autoreset import AutoResetWrapper
import jax
import tyro
import navix as nx
from navix.environments.environment import Environment, Timestep


NAVIX_TO_MINIGRID = {
    "Navix-Empty-5x5-v0": "MiniGrid-Empty-5x5-v0",
    "Navix-Empty-6x6-v0": "MiniGrid-Empty-6x6-v0",
    "Navix-Empty-8x8-v0": "MiniGrid-Empty-8x8-v0",
    "Navix-Empty-16x16-v0": "MiniGrid-Empty-16x16-v0",
}


@dataclass
class Args:
    budget: int = 1_000_000
    num_runs: int = 5


def collect_experience(env: Environment, timestep: Timestep, length: int) -> Timestep:
    key = jax.random.PRNGKey(0)
    # actions = jax.random.randint(key, (length,), 0, env.action_space.maximum + 1)
    action = jax.random.randint(key, (), 0, env.action_space.maximum + 1)

    def _env_step(env_state: Timestep, _) -> Tuple[Timestep, tuple]:
        # STEP ENV
        # new_env_state = jax.vmap(env.step, in_axes=(0, 0))(env_state, action)
        new_env_state = env.step(env_state, action)
        return new_env_state, ()

    # collect experience and update env_state
    timestep, _ = jax.lax.scan(
        _env_step,
        timestep,
        None,
        length,
        unroll=100,
    )
    return timestep


def run_navix(env_id: str, length: int) -> float:
    print("Initialising navix env...")
    env = nx.make(env_id)
    key = jax.random.PRNGKey(0)
    timestep = env.reset(key)

    print("Compiling navix function")
    compile_start = time.perf_counter()
    unroll_jit = (
        jax.jit(collect_experience, static_argnums=(2,))
        .lower(env, timestep, length)
        .compile()
    )
    compile_end = time.perf_counter()
    print("Compiled navix function in", compile_end - compile_start)

    print("Running navix")
    start_time = time.perf_counter()
    timestep = unroll_jit(env, timestep)
    timestep.t.block_until_ready()
    end_time = time.perf_counter()
    print("Completed navix", env_id, end_time - start_time)

    return end_time - start_time


def run_minigrid(env_id: str, length: int) -> float:
    print("Initialising minigrid env...")
    env = AutoResetWrapper(gym.make(NAVIX_TO_MINIGRID[env_id]))
    env.reset()

    actions = jax.random.randint(jax.random.PRNGKey(0), (length,), 0, 7)

    def unroll_minigrid():
        for action in actions:
            timestep = env.step(action)
        return timestep

    print("Running minigrid")
    start_time = time.perf_counter()
    unroll_minigrid()
    end_time = time.perf_counter()
    print("Completed minigrid", env_id, end_time - start_time)

    return end_time - start_time


def main():
    out_path = os.path.join(os.path.dirname(__file__), "env_steps.json")
    env_id = "Navix-Empty-5x5-v0"

    results = {}
    for i in range(args.num_runs):
        print("Run navix", i)
        elapsed = run_navix(env_id, args.budget)
        # results[env_id] = results.get(env_id, []) + [elapsed]

    for i in range(args.num_runs):
        elapsed = run_minigrid(env_id, args.budget)
        minigrid_id = NAVIX_TO_MINIGRID[env_id]
        # results[minigrid_id] = results.get(minigrid_id, []) + [elapsed]

    print("Writing results")
    with open(out_path, "w") as f:
        json.dump(results, f, indent=4)


if __name__ == "__main__":
    args = tyro.cli(Args)

    main()
