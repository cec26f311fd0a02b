# source: https://github.com/FLAIROx/JaxMARL/blob/294912c3f55ea9779f8a774a3ce142008e4c1981/tests/switch_riddle/benchmark.py
# title: JaxMARL's `tests/switch_riddle/benchmark.py` (from the project's `multiagentgymnax` days): 1,000 steps of 100 batched Switch Riddle environments in JAX against a NumPy implementation, each timed in a helper with `time.time()`, the JAX side warmed once, and the speedup and steps per second printed
# established-by: maintainer FLAIROx (the JaxMARL team's benchmark script; no issue discusses its timing)
# cause: The timing sits in two helpers, `get_jax_time` and `get_no_jax_time`. `get_jax_time` runs `batch_reset` and `batch_step` once 'to make sure to compile' with the same shapes as the timed loop (no LB103; `batch_step` is jitted in the folder's `RolloutManager`, with `self` static), then returns `time.time() - t0` right after dispatching the 1,000th step: each step consumes the previous `state`, but nothing waits for the last ones, so the JAX time, and the speedup and steps per second computed from it, can stop while steps are still queued (LB102, at the timed `batch_step` call; 388's reading of an unwaited loop of jitted environment steps). Both intervals are read with `time.time()` (LB105, at the two start reads; the printed speedup is the ratio of the two). Each figure is one loop of 1,000 steps, not a single call (no LB104); the key split per step is eager device work beside the compiled step (no LB114, the corpus's reading of eager work beside compiled steps); the actions are made once, before timing, by the jitted `batch_sample` (no LB115). Code: the file as stored at commit 294912c, unchanged (`rollout_menager` and `switch_riddle_nojax` are modules of the same test folder).
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (the clock stops after dispatching the last step, with nothing waited; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:49, LB105:22/46
# first-sight: 858cce0 2026-12-06 py: found LB105:46 LB102:49; missed none; false LB114:47 | notebook: found LB105:46 LB102:49; missed none; false LB114:47

from multiagentgymnax import make
from rollout_menager import RolloutManager
from switch_riddle_nojax import SwitchRiddleNoJax
import time
import jax

def get_no_jax_time(parallel_envs, num_agents, max_steps):
    env = SwitchRiddleNoJax(num_agents, parallel_envs)
    _ = env.reset()
    actions = env.sample_actions()

    t0 = time.time()
    for i in range(max_steps):

        _ = env.step(actions)

    return time.time() - t0

def get_jax_time(parallel_envs, num_agents, max_steps):

    env = make('switch_riddle', num_agents=num_agents)
    batched_env = RolloutManager(env, batch_size=parallel_envs)
    key = jax.random.PRNGKey(0)

    # run once to make sure to compile
    key, key_r, key_a, key_s = jax.random.split(key, 4)
    _, state = batched_env.batch_reset(key_r)
    key_a = jax.random.split(key_a, env.num_agents)
    actions = {agent: batched_env.batch_sample(key_a[i], agent) for i, agent in enumerate(env.agents)}
    _, state, _, _, _ = batched_env.batch_step(key_s, state, actions)

    # run
    key, key_r = jax.random.split(key)
    _, state = batched_env.batch_reset(key_r)

    t0 = time.time()
    for i in range(max_steps):
        key, key_s = jax.random.split(key)
        _, state, _, _, _, = batched_env.batch_step(key_s, state, actions)

    return time.time() - t0

def benchmark():
    parallel_envs = 100
    num_agents = 10
    max_steps = 1000
    
    jax_time = get_jax_time(parallel_envs, num_agents, max_steps)
    no_jax_time = get_no_jax_time(parallel_envs, num_agents, max_steps)
    
    print('no jax time', no_jax_time, 'jax time', jax_time, 'speedup', no_jax_time/jax_time)

    no_jax_per_step = (max_steps*parallel_envs)/no_jax_time
    jax_per_step = (max_steps*parallel_envs)/jax_time

    print('no jax steps/sec', no_jax_per_step , 'jax steps/sec', jax_per_step, 'speedup', jax_per_step/no_jax_per_step)

if __name__=='__main__':
    benchmark()
