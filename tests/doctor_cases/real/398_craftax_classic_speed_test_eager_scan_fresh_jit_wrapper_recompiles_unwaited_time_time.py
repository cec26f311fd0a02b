# source: https://github.com/MichaelTMatthews/Craftax/blob/dc617511767fd4e36272cc83270e233dd9c67de0/craftax_classic/analysis/speed_test.py
# title: Craftax-Classic `analysis/speed_test.py`: 2048 vmapped environments stepped 64 times by an eager `jax.lax.scan(jax.jit(_vmap_step), ...)`, run once between two `time.time()` reads as a warm-up and once more between two more, printed as 'Steps per second'
# established-by: maintainer MichaelTMatthews (the repository author's speed script; no issue discusses its timing)
# cause: The script means the first clock pair as a warm-up (its interval is never computed: `t0` and `t1` are overwritten) and reports the second. What a correct doctor reports, by the catalogue and the corpus's readings: each timed statement applies `jax.jit` to `_vmap_step` afresh and hands the new wrapper to an eager `lax.scan`, which traces the body again and compiles a new program for it, so the warm-up warms nothing and the reported figure holds a full compile of the 64-step scan (checked on jax 0.10.2 with `jax.log_compiles`: an eager `lax.scan(jax.jit(f), ...)` compiles on every statement, while a `jax.jit(f)` made once and passed twice compiles once): LB111 at the reported statement, where the catalogue puts a `jax.jit` applied inside a timed statement (case 243's reading), and LB103 at the same line, the compile in the timing (case 380's reading of a jit rebuilt inside the timed call); the scan's result, the final states and the 64 observations, is discarded and never waited for, so the clock can stop at dispatch (LB102); the figure is one call between two clock reads (LB104, at the first statement inside the clock pair); and the clock is `time.time()` (LB105, at the start read of the reported pair). The first pair's statement carries none of these: no figure is taken from it. The eager scan itself is one dispatch of a compiled loop, not op-by-op work (no LB114). Code: the file as stored at commit dc61751, unchanged.
# static: LB111, LB103, LB102, LB104, LB105
# dynamic: n/a
# inferred: LB111 (a fresh `jax.jit` wrapper per timed statement; not discussed), LB103 (the reported run compiles the scan again; not discussed), LB102 (the scan's result is discarded unwaited; not discussed), LB104 (one run timed once; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB111:49, LB103:49, LB102:49, LB104:49, LB105:48
# first-sight: 9bb132d 2026-12-06 py: found LB105:48 LB102:49 LB104:49 LB111:49; missed LB103:49; false LB105:44 LB102:45 LB111:45 | notebook: found LB105:48 LB102:49 LB104:49 LB111:49; missed LB103:49; false LB105:44 LB102:45 LB111:45

import time

import jax
import numpy as np

from craftax_classic.envs.craftax_symbolic_env import CraftaxEnv


def main():
    NUM_ENVS = 1024 * 2
    NUM_STEPS = 64

    env = CraftaxEnv()
    env_params = env.default_params

    rng = jax.random.PRNGKey(np.random.randint(2**31))
    rngs = jax.random.split(rng, NUM_ENVS + 1)
    rng, _rngs = rngs[0], rngs[1:]
    _, env_state = jax.vmap(env.reset, in_axes=(0, None))(_rngs, env_params)

    def _vmap_step(rng_and_states, unused):
        rng, states = rng_and_states
        rng, _rng = jax.random.split(rng)
        actions = jax.random.randint(_rng, (NUM_ENVS,), 0, 17)

        rngs = jax.random.split(rng, NUM_ENVS + 1)
        rng, _rngs = rngs[0], rngs[1:]
        obs, env_state, reward, done, info = jax.vmap(
            env.step, in_axes=(0, 0, 0, None)
        )(_rngs, states, actions, env_params)

        return (rng, env_state), obs

    t0 = time.time()
    jax.lax.scan(jax.jit(_vmap_step), (rng, env_state), (), length=NUM_STEPS)
    t1 = time.time()

    t0 = time.time()
    jax.lax.scan(jax.jit(_vmap_step), (rng, env_state), (), length=NUM_STEPS)
    t1 = time.time()

    print(f"Steps per second: {NUM_STEPS * NUM_ENVS / (t1 - t0)}")


if __name__ == "__main__":
    main()
