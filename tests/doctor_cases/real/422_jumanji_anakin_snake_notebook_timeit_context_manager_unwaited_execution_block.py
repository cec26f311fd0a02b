# source: https://github.com/instadeepai/jumanji/blob/1ed2bc4f6647c985f87c8ef188ad0cbaa852f82f/examples/anakin_snake.ipynb
# title: Jumanji's 'Snake with Anakin' notebook: a pmapped, vmapped Deep-Q learner (the Podracer colab's Anakin design) trained on Snake6-v0, its first call timed in a `TimeIt` context manager tagged COMPILATION and the training loop in one tagged EXECUTION, each printing elapsed time and frames per second from `timeit.default_timer`
# established-by: maintainer instadeepai (the Jumanji team's example notebook; no issue discusses its timing)
# cause: The timing sits in a context-manager class, `TimeIt`, whose `__exit__` reads `timeit.default_timer()` (`perf_counter`, no LB105) and never waits for anything. The EXECUTION block times `n_outer_iter` calls of the pmapped `learn` and the eager `nanmax`, `nanmean` and `concatenate` of each call's metrics, none of them read on the host before the block closes, so the clock stops while the last updates can still be queued and the printed frames per second counts dispatch at the end (LB102, at the timed `learn` call in the loop, the statement's first line and the line of the call; 401's reading of an unwaited training step). The COMPILATION block times the first call of `learn` on purpose, as its tag and the comment `# compiles` say, with the same argument shapes as the loop, so the loop's figure holds no compile (no LB103) and the one-call block is a compile timed on purpose, not a sample (no LB104); a jitted or pmapped call returns only after its compilation, so that figure holds the compile it names (not LB102; the first run it dispatches spills into the EXECUTION block, which is unwaited anyway). The eager metric reductions beside the compiled step are per-iteration bookkeeping of the training loop (no LB114, the corpus's reading of eager work beside compiled steps), and the greedy episode at the end is untimed (no LB114). What else a correct doctor reports: `import jax.tools.colab_tpu`, in the TPU branch of the imports cell, names a module JAX no longer has (LB113, at the import; `jax.tree_map`, removed too, is an attribute, not an import, 407's reading). Noted, not labelled: the COMPILATION block also prints a frames-per-second figure for a compile, and `TimeIt` prints nothing when `frames` is not given (the print sits inside the `if`). Code: the notebook's code cells at commit 1ed2bc4 in order, one `# %%` cell each; the markdown and the two `pip install` cells (one installs from a private GitLab URL with an access token in it) are left out.
# static: LB102, LB113
# dynamic: n/a
# inferred: LB102 (the EXECUTION clock stops before anything waits for the learner's results; not discussed), LB113 (`jax.tools.colab_tpu` is not in the installed JAX; not discussed)
# lines: LB102:326/333, LB113:17
# first-sight: 858cce0 2026-12-06 py: found LB113:17; missed LB102:326/333; false LB102:320 LB102:341 | notebook: found LB113:17; missed LB102:326/333; false LB102:320 LB102:341

# %%
# Imports
import jax
import warnings
if jax.devices()[0].platform == 'tpu':
    # Setup TPU
    import jax.tools.colab_tpu
    jax.tools.colab_tpu.setup_tpu()
    use_tpu = True
    print("Running with TPU!")
elif jax.devices()[0].platform == "gpu":
    use_tpu = False
    print("Running with GPU!")
else:
    use_tpu = False
    print("Running with GPU!")
    warnings.warn("Running with CPU. We reccomend running this notebook in Colab with TPU enabled,"
              "or GPU if TPU is not available.")

print(f"Devices: {jax.devices()}")
import chex
import jax
import haiku as hk
from jax import lax
from jax import random
from jax import numpy as jnp
import matplotlib.pyplot as plt
import optax
import rlax
import timeit
from tqdm import tqdm

# Jumanji imports
from jumanji import Environment
import jumanji
from jumanji.wrappers import AutoResetWrapper

# %%
# Class for timing blocks of code.
class TimeIt():
    def __init__(self, tag, frames=None):
        self.tag = tag
        self.frames = frames

    def __enter__(self):
      self.start = timeit.default_timer()
      return self

    def __exit__(self, *args):
        self.elapsed_secs = timeit.default_timer() - self.start
        msg = self.tag + (': Elapsed time=%.2fs' % self.elapsed_secs)
        if self.frames:
            msg += ', FPS=%.2e' % (self.frames / self.elapsed_secs)
            print(msg)

# %%
@chex.dataclass(frozen=True)
class TimeStep:
    """Data used for training."""

    q_values: chex.Array
    action: chex.Array
    discount: chex.Array
    reward: chex.Array

@chex.dataclass(frozen=True)
class EpisodeMetrics:
    """Metrics that we use to keep track of the episode return and length 
    throughout interation with the environment."""

    episode_return: chex.Array
    episode_length: chex.Array

# %%
def get_network_fn(num_outputs: int):
    """Define conv net for agent."""

    def network_fn(obs: chex.Array) -> chex.Array:
        return hk.Sequential(
            [
                hk.Conv2D(32, (2, 2), 2),
                jax.nn.relu,
                hk.Conv2D(32, (2, 2), 1),
                jax.nn.relu,
                hk.Flatten(),
                hk.Linear(64),
                jax.nn.relu,
                hk.Linear(64),
                jax.nn.relu,
                hk.Linear(num_outputs),
            ]
        )(obs)

    return hk.without_apply_rng(hk.transform(network_fn))

# %%
def get_learner_fn(
    env,
    forward_pass,
    opt_update,
    rollout_len,
    agent_discount,
    lambda_,
    iterations,
    epsilon,
):
    """Define the minimal unit of computation in Anakin."""

    def loss_fn(params, outer_rng, env_state, prev_obs, episode_metrics):
        """Compute the loss on a single trajectory."""

        def step_fn(carry, rng):
            env_state, prev_obs, episode_metrics = carry
            q_values = forward_pass(params, prev_obs[None,])[
                0
            ]  # forward pass.
            action = rlax.epsilon_greedy(epsilon).sample(rng, q_values)
            env_state, env_timestep, extra = env.step(
                env_state, action
            )  # step environment.

            obs = env_timestep.observation
            discount = env_timestep.discount
            reward = env_timestep.reward
            # record info that we will log
            info = {
                "episode_return": jnp.where(
                    discount == 0.0, reward + episode_metrics.episode_return, jnp.nan
                ),
                "episode_length": jnp.where(
                    discount == 0.0, 1 + episode_metrics.episode_length, jnp.nan
                ),
            }
            # update the episode_metrics that we use to keep track of the 
            # episode return and length.
            episode_metrics = EpisodeMetrics(
                episode_return=jnp.where(
                    discount == 0.0,
                    jnp.array(0.0),
                    reward + episode_metrics.episode_return,
                ),
                episode_length=jnp.where(
                    discount == 0.0, jnp.array(0), 1 + episode_metrics.episode_length
                ),
            )
            carry = env_state, obs, episode_metrics
            return carry, (
                TimeStep(  # return env state and transition data.
                    q_values=q_values,
                    action=action,
                    discount=discount,
                    reward=reward,
                ),
                info,
            )

        step_rngs = random.split(outer_rng, rollout_len)
        (env_state, prev_obs, episode_metrics), (rollout, info) = lax.scan(
            step_fn, (env_state, prev_obs, episode_metrics), step_rngs
        )  # trajectory.
        qa_tm1 = rlax.batched_index(rollout.q_values[:-1], rollout.action[:-1])
        td_error = rlax.td_lambda(  # compute multi-step temporal diff error.
            v_tm1=qa_tm1,  # predictions.
            r_t=rollout.reward[:-1],  # rewards.
            discount_t=agent_discount * rollout.discount[:-1],  # discount.
            v_t=jnp.max(rollout.q_values[1:], axis=-1),  # bootstrap values.
            lambda_=lambda_,
        )  # mixing hyper-parameter lambda.
        # record info for visualising training progress.
        info = {
            "episode_return": jnp.nanmean(info["episode_return"], axis=0),
            "episode_length": jnp.nanmean(info["episode_length"], axis=0),
            "reward": jnp.mean(rollout.reward),
            "q_values": jnp.mean(qa_tm1),
            "max_episode_return": jnp.nanmax(info["episode_return"], axis=0)
        }
        return jnp.mean(td_error**2), (env_state, prev_obs, episode_metrics, info)

    def update_fn(params, opt_state, rng, env_state, prev_obs, episode_metrics):
        """Compute a gradient update from a single trajectory."""
        rng, loss_rng = random.split(rng)
        grads, (
            new_env_state,
            new_prev_obs,
            episode_metrics,
            info,
        ) = jax.grad(  # compute gradient on a single trajectory.
            loss_fn, has_aux=True
        )(
            params, loss_rng, env_state, prev_obs, episode_metrics
        )
        grads = lax.pmean(grads, axis_name="j")  # reduce mean across cores.
        grads = lax.pmean(grads, axis_name="i")  # reduce mean across batch.
        updates, new_opt_state = opt_update(grads, opt_state)  # transform grads.
        new_params = optax.apply_updates(params, updates)  # update parameters.
        return (
            new_params,
            new_opt_state,
            rng,
            new_env_state,
            new_prev_obs,
            episode_metrics,
            info,
        )

    def learner_fn(params, opt_state, rngs, env_states, prev_obses, episode_metrics):
        """Vectorise and repeat the update."""
        batched_update_fn = jax.vmap(
            update_fn, axis_name="j"
        )  # vectorize across batch.

        def iterate_fn(carry, _):  # repeat many times to avoid going back to Python.
            params, opt_state, rngs, env_states, prev_obses, episode_return = carry
            (
                new_params,
                new_opt_state,
                rng,
                new_env_state,
                new_prev_obs,
                episode_return,
                info,
            ) = batched_update_fn(
                params, opt_state, rngs, env_states, prev_obses, episode_return
            )
            carry = (
                new_params,
                new_opt_state,
                rng,
                new_env_state,
                new_prev_obs,
                episode_return,
            )
            # record mean of all info over the batch, as well as the max return.
            max_return_info = {"max_episode_return": 
                               jnp.nanmax(info["max_episode_return"], axis=0)}
            info = jax.tree_util.tree_map(lambda x: jnp.nanmean(x, axis=0), info)
            info.update(max_return_info)
            return carry, info

        init = params, opt_state, rngs, env_states, prev_obses, episode_metrics
        return jax.lax.scan(iterate_fn, init, xs=None, length=iterations)

    return learner_fn

# %%
def run_experiment(
    env,
    batch_size,
    rollout_len,
    step_size,
    iterations,
    seed,
    epsilon = 0.02,
    agent_discount=0.99,
    lambda_=0.95,
    inner_iter_length=100, 
):
    """Runs experiment. 

    `inner_iter_length` sets how many iterations to do in the `jax.lax.scan`
    before going back to python
    """
    cores_count = len(jax.devices())  # get available TPU cores.
    network = get_network_fn(env.action_spec().num_values)  # define network.
    optim = optax.adam(step_size)  # define optimiser.

    rng, rng_e, rng_p = random.split(random.PRNGKey(seed), num=3)  # prng keys.
    dummy_obs = env.observation_spec().generate_value()[
        None,
    ]  # dummy for net init.
    params = network.init(rng_p, dummy_obs)  # initialise params.
    opt_state = optim.init(params)  # initialise optimiser stats.


    learn = get_learner_fn(  # get batched iterated update.
        env,
        network.apply,
        optim.update,
        rollout_len=rollout_len,
        agent_discount=agent_discount,
        lambda_=lambda_,
        iterations=inner_iter_length,
        epsilon=epsilon
    )
    learn = jax.pmap(learn, axis_name="i")  # replicate over multiple cores.

    broadcast = lambda x: jnp.broadcast_to(x, (cores_count, batch_size) + x.shape)
    params = jax.tree_map(broadcast, params)  # broadcast to cores and batch.
    opt_state = jax.tree_map(broadcast, opt_state)  # broadcast to cores and batch

    episode_metrics = EpisodeMetrics(
            episode_return=jnp.zeros(shape=(), dtype=jnp.float32),
            episode_length=jnp.zeros(shape=(), dtype=jnp.int16),
        )
    episode_metrics = jax.tree_map(broadcast, episode_metrics)

    rng, *env_rngs = jax.random.split(rng, cores_count * batch_size + 1)
    env_states, timesteps, _ = jax.vmap(env.reset)(jnp.stack(env_rngs))  # init envs.
    rng, *step_rngs = jax.random.split(rng, cores_count * batch_size + 1)

    reshape = lambda x: jax.tree_util.tree_map(
        lambda x: x.reshape((cores_count, batch_size) + x.shape[1:]), x
    )
    step_rngs = reshape(jnp.stack(step_rngs))  # add dimension to pmap over.
    env_states = reshape(env_states)  # add dimension to pmap over.
    prev_obs = reshape(timesteps.observation)

    num_frames_compile = cores_count * inner_iter_length * rollout_len * batch_size
    with TimeIt(tag="COMPILATION", frames=num_frames_compile):
        learn(params, opt_state, step_rngs, env_states, prev_obs, episode_metrics)  # compiles

    num_frames = cores_count * iterations * rollout_len * batch_size
    n_outer_iter = int(iterations // inner_iter_length)
    with TimeIt(tag="EXECUTION", frames=num_frames):
        for i in tqdm(range(n_outer_iter)):
            (
                params,
                opt_state,
                step_rngs,
                env_states,
                prev_obs,
                episode_metrics,
            ), new_info = learn(  # runs compiled fn
                params, opt_state, step_rngs, env_states, prev_obs, 
                episode_metrics
            )
            # record metrics
            max_return_info = {"max_episode_return": 
                               jnp.nanmax(new_info["max_episode_return"], axis=0)}
            new_info = jax.tree_util.tree_map(lambda x: jnp.nanmean(x, axis=0), new_info)
            new_info.update(max_return_info)
            if i == 0:
                info = new_info
            else:
                info = {key: jnp.concatenate((info[key], new_info[key])) for key in info.keys()}
    params_single_device = jax.tree_util.tree_map(lambda x: x[0, 0], params)
    return params_single_device, info

# %%
print("Running on", len(jax.devices()), "cores.", flush=True)  # !expected 8!
# We auto-reset the environment state when the episode ends during training.
env = AutoResetWrapper(jumanji.make('Snake6-v0'))
# Define hyper-parameters.
batch_size = 256
seed = 0
rollout_len = 8
step_size = 1e-3 # learning rate
if use_tpu: 
  # The TPU has 8 devices (each vmapping over batch_size many environments).
  # Therefore we need less training iterations to obtain good performance.
  iterations = 8000
else: 
  # For GPU we can do less in parellel and 
  # therefore need more training iterations.
  iterations = 20000

params, info = run_experiment(env=env, batch_size=batch_size, rollout_len=rollout_len, step_size=step_size, iterations=iterations, seed=seed)

# %%
# Plot the mean and max return throughout training.
# The maximum return possible on Snake6-v0 is 35.
# We see that by the end of the episode the agent is regularly obtaining 
# the max return.
# Some other keys in info that can also be plotted: "q_values", "reward", "episode_length"

plt.plot(info["max_episode_return"])
plt.title("max episode return per batch")
plt.xlabel("training iteration")
plt.show()

plt.plot(info["episode_return"])
plt.title("mean episode return per batch")
plt.xlabel("training iteration")
plt.show()

# %%
# Now we run an episode using greedy action selection while rendering the environment.
# The trained agent obtains close to the maximum return (35). 

# Re-instantiate the environment without the auto-reset.
# TODO: Add render once it has been set up for snake.
env = jumanji.make('Snake6-v0') 
key = jax.random.PRNGKey(0)
network = get_network_fn(env.action_spec().num_values)

state, timestep, _ = env.reset(key)
episode_return = 0
while not timestep.last():
    key, subkey = jax.random.split(key)
    q_values = network.apply(params, timestep.observation[None, ])[0]  # forward pass.
    action = jnp.argmax(q_values)  # greedy policy.
    state, timestep, extra = env.step(state, action)  # step environment
    episode_return += timestep.reward
    # env.render(state)
print(f"episode complete with return of {episode_return}")
