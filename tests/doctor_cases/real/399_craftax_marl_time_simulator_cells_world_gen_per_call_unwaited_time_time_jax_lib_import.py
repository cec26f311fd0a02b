# source: https://github.com/MichaelTMatthews/Craftax/blob/f5654a4bdac8c9f706ceb3f9f39a63025f5a250f/craftax/time_simulator.py
# title: Craftax's `time_simulator.py` (`# %%` cells): the multi-agent world generator under `jax.jit` with its static parameters, called 100 times as a warm-up, then timed call by call 1000 times with `time.time()` and reported as the mean and median 'time per run'
# established-by: maintainer MichaelTMatthews (the repository author's timing script; no issue discusses its timing)
# cause: The world generator is jitted once and warmed by 100 calls at the same shapes and static arguments, so no timed call compiles (no LB103), and 1000 per-call samples are summarised by mean and median (no LB104). What a correct doctor reports, by the catalogue and the corpus's readings: each timed `state = world_gen_jitted(...)` is read between two clock reads with nothing waiting for the generated state, so every sample can be dispatch only, and the 100 warm-up calls are not waited for either, so the first samples may also wait behind them in the queue (LB102 at the timed call, case 388's reading of a timed loop whose results nobody waits for); the clock is `time.time()` (LB105, at the start read); and the last cell imports `xla_bridge` from `jax.lib`, which the installed JAX no longer has, so the script as written stops there with an ImportError (LB113, the reading of cases 287 and 307 for `from jax.config import config`). Code: the file as stored at commit f5654a4, unchanged (its last cell ends after jitting `craftax_step`).
# static: LB102, LB105, LB113
# dynamic: n/a
# inferred: LB102 (the timed calls' results are never waited for; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB113 (`from jax.lib import xla_bridge` raises ImportError on current JAX; not discussed)
# lines: LB102:34, LB105:33, LB113:47

# %%
import jax
import jax.numpy as jnp

rng = jax.random.PRNGKey(0)

# %%
from craftax_marl.envs.craftax_pixels_env import CraftaxMARLPixelsEnv as CraftaxEnv

env = CraftaxEnv(CraftaxEnv.default_static_params())

# %%
# Generate World
from craftax_marl.world_gen.world_gen import generate_world

world_gen_jitted = jax.jit(generate_world, static_argnums=(2, ))

for _ in range(100):
    state = world_gen_jitted(rng, env.default_params, env.static_env_params)

import time
times = []
for _ in range(1000):
    start_time = time.time()
    state = world_gen_jitted(rng, env.default_params, env.static_env_params)
    end_time = time.time()
    times.append(end_time - start_time)

mean_time = jnp.mean(jnp.array(times))
median_time = jnp.median(jnp.array(times))

print(f"Mean time per run: {mean_time:.6f} seconds")
print(f"Median time per run: {median_time:.6f} seconds")

# %%
from craftax_marl.game_logic import craftax_step
import time
from jax.lib import xla_bridge

jitted_step = jax.jit(craftax_step, static_argnames=("static_params", ))
