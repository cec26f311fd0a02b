# source: https://github.com/mlech26l/gigastep/blob/1dec594f95020d707c5e177d89a55d3b7eb7972d/gigastep/run_benchmark.py
# title: Gigastep `gigastep/run_benchmark.py`: the steps-per-second table over batch sizes and observation types, each configuration's 5 x 2000-step rollout with a freshly jitted Flax policy timed once, cold, between two `time.time()` reads, the last observation waited for
# established-by: maintainer mlech26l (the script behind the repository's LaTeX throughput table)
# cause: Each pass of the loop builds a new environment and, through `create_train_state`, a new `jax.jit(model.apply)` policy, then times its first rollout: the policy's first call (and the new environment's jitted step, compiled for this batch size) traces and compiles inside the timed region, so each figure's average over 10,000 steps carries that compile (LB103, at the two timed calls; the rollouts wait for their result with `obs.block_until_ready()`, so no LB102). Each configuration is timed once, with no warm-up and no repeat, and printed as its own table cell (LB104, at the first statement inside the clock pair; case 284's reading of a loop in which every pass times a different configuration once, not case 223's repeated figure), and the interval is read with `time.time()` (LB105, at the start read). The jit is built outside the timing and stored in the returned `TrainState`, so no LB111. The Python step loop, jitted policy and environment step with eager `jax.random` splits between them, is the table's 'no scan' rollout by design (no LB114: eager work beside compiled steps was a false LB114 at the first sight of cases 319, 324 and 325). The script is the later form of `examples/benchmark.py` (case 331), with waits added. No issue discusses it; the readings are the catalogue's. Code: the file as stored at commit 1dec594, trimmed: `run_vmapped_scan` and `run_single_scan`, never called, are left out.
# static: LB103, LB104, LB105
# dynamic: n/a
# inferred: LB103 (the freshly jitted policy's first call is inside each timing; not discussed), LB104 (one cold sample per configuration; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB103:193/195, LB104:192, LB105:191
# first-sight: de40b29 2026-12-06 py: found LB105:191 LB104:192; missed LB103:193/195; false LB114:36 LB114:40 LB114:55 LB114:58 | notebook: found LB105:191 LB104:192; missed LB103:193/195; false LB114:36 LB114:40 LB114:55 LB114:58

import argparse
import time

import jax
import jax.numpy as jnp
from flax.training import train_state

from gigastep import GigastepEnv
import time
import time
import optax
from flax import linen as nn


def create_train_state(model, rng, in_dim):
    """Creates initial `TrainState`."""
    params = model.init(rng, jnp.ones(in_dim))
    tx = optax.adam(3e-4)
    return train_state.TrainState.create(
        apply_fn=jax.jit(model.apply), params=params, tx=tx
    )


def run_vmapped_no_scan(env, params, batch_size, n_steps, repeats=1):
    rng = jax.random.PRNGKey(1)
    for _ in range(repeats):
        rng, key = jax.random.split(rng, 2)
        key = jax.random.split(key, batch_size)
        states, obs = env.v_reset(key)
        for i in range(n_steps):
            rng, key = jax.random.split(rng, 2)
            if params is None:
                actions = jnp.zeros(
                    (batch_size, env.n_agents, env.action_space.shape[0])
                )
            else:
                actions = params.apply_fn(params.params, obs)
            key = jax.random.split(key, batch_size)
            states, obs, r, a, d = env.v_step(states, actions, key)
    obs.block_until_ready()


def run_single_no_scan(env, params, n_steps, repeats=1):
    rng = jax.random.PRNGKey(1)
    for _ in range(repeats):
        rng, key = jax.random.split(rng, 2)
        states, obs = env.reset(key)
        for i in range(n_steps):
            rng, key = jax.random.split(rng, 2)
            if params is None:
                actions = jnp.zeros((env.n_agents, env.action_space.shape[0]))
            else:
                actions = params.apply_fn(params.params, obs)
            states, obs, r, a, d = env.step(states, actions, key)
    obs.block_until_ready()


def to_human_readable(step_per_second):
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
    if step_per_second > 100:
        step_per_second_str = f"{step_per_second:0.0f}{postfix}"
    else:
        step_per_second_str = f"{step_per_second:0.1f}{postfix}"
    sec_to_100M = 100_000_000 / orig_step_per_second
    if sec_to_100M >= 120 * 60:  # 120 minutes
        hours = sec_to_100M / 60 / 60
        time_to_100m = f"{int(round(hours))} hours"
    elif sec_to_100M >= 60:
        mins = sec_to_100M / 60
        time_to_100m = f"{int(round(mins))} minutes"
    else:
        time_to_100m = f"{sec_to_100M:0.1f} seconds"
    return step_per_second_str, time_to_100m


class ConvPolicy(nn.Module):
    num_outputs: int

    @nn.compact
    def __call__(self, x):
        batch_size = x.shape[0]
        five_dims = False
        if len(x.shape) == 5:
            five_dims = True
            x = jnp.reshape(x, (-1, *x.shape[-3:]))
        x = x.astype(jnp.float32) / 255.0
        x = nn.Conv(features=32, kernel_size=(3, 3), strides=(1, 1), name="conv1")(x)
        x = nn.relu(x)
        x = nn.Conv(
            features=64,
            kernel_size=(5, 5),
            strides=(2, 2),
            name="conv2",
        )(x)
        x = nn.relu(x)
        x = nn.Conv(
            features=128,
            kernel_size=(5, 5),
            strides=(2, 2),
            name="conv3",
        )(x)
        x = nn.relu(x)
        x = nn.Conv(
            features=128,
            kernel_size=(5, 5),
            strides=(2, 2),
            name="conv4",
        )(x)
        x = nn.relu(x)
        x = nn.Conv(
            features=256,
            kernel_size=(5, 5),
            strides=(2, 2),
            name="conv5",
        )(x)
        x = nn.relu(x)
        # global average pooling
        x = jnp.mean(x, axis=(1, 2))
        x = nn.Dense(features=128, name="hidden")(x)
        x = nn.relu(x)
        x = nn.Dense(features=self.num_outputs, name="logits")(x)
        if five_dims:
            x = jnp.reshape(x, (batch_size, -1, self.num_outputs))
        return x


class MLPPolicy(nn.Module):
    num_outputs: int

    @nn.compact
    def __call__(self, x):
        x = nn.Dense(features=128, name="hidden")(x)
        x = nn.tanh(x)
        x = nn.Dense(
            features=self.num_outputs,
            name="logits",
        )(x)
        return x


def main():
    BATCH_SIZES = [1, 8, 32, 128, 512, 2048, 8192]

    parser = argparse.ArgumentParser()
    parser.add_argument("--format", default="latex", type=str, help="Output format")
    parser.add_argument("--no_policy", action="store_true", help="Don't run policy")
    args = parser.parse_args()

    latex_format = args.format == "latex"
    if latex_format:
        print("\\begin{tabular}{lc|cccc}\\toprule")
        print(
            "Device & Batch size & \\multicolumn{2}{c}{Vector} & \\multicolumn{2}{c}{RGB} \\\\"
        )
        print("& & steps/s & Time to 100M & steps/s & Time to 100M \\\\\\midrule")
    for batch_size in BATCH_SIZES:
        if latex_format:
            print(f" DEVICE &  {batch_size}", end="")
        for obs_type in ["vector", "rgb"]:
            env = GigastepEnv(n_agents=4, obs_type=obs_type)
            if obs_type == "vector":
                policy = MLPPolicy(num_outputs=env.action_space.shape[0])
                input_shape = (1, env.observation_space.shape[0])
            else:
                policy = ConvPolicy(num_outputs=env.action_space.shape[0])
                input_shape = (1, 84, 84, 3)
            nn_state = create_train_state(policy, jax.random.PRNGKey(0), input_shape)
            if args.no_policy:
                nn_state = None

            start_time = time.time()
            if batch_size == 1:
                run_single_no_scan(env, nn_state, n_steps=2000, repeats=5)
            else:
                run_vmapped_no_scan(
                    env, nn_state, n_steps=2000, repeats=5, batch_size=batch_size
                )
            elapsed = time.time() - start_time
            num_agent_steps = 2000 * batch_size * 4 * 5
            step_per_second = num_agent_steps / elapsed
            step_per_second_str, time_to_100m = to_human_readable(step_per_second)

            if latex_format:
                print(f" & {step_per_second_str} & {time_to_100m} ", end="")

            if not latex_format:
                print(
                    f"{batch_size} {obs_type} steps/s: {step_per_second_str} time to 100M: {time_to_100m}"
                )
        if latex_format:
            print(" \\\\")

    if latex_format:
        print("\\bottomrule")
        print("\\end{tabular}")


if __name__ == "__main__":
    main()
