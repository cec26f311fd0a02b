# source: https://github.com/stergiosba/PaxRL/blob/e34d8f45ba4b273d96e4c3fd823e859e8619e2c6/tests/test.py
# title: PaxRL's `tests/test.py`: `run_test_1` builds the `prob_env` environment, wraps its `batch_rollout` in `jax.jit` inside a `time.time()` clock pair and prints the time of that one first call before rendering the rollout
# established-by: maintainer stergiosba (the PaxRL author's test script; no issue discusses its timing)
# cause: The timing sits in a helper, `run_test_1`, and its one figure is the first call of a rollout jitted inside the clock pair: tracing and XLA compilation are in it (LB103, at the call), nothing says the compile is what it measures, and it is one sample (LB104, at the first statement inside the clock pair, the `jax.jit` line, the corpus's placement); the clock stops as soon as the call returns while the rollout's observations are read only afterwards by `render` (LB102, at the call; another stored version of the file shows the wait, `#O.block_until_ready()`, commented out); and the clock is `time.time()` (LB105, at the start read). `jax.jit` runs once per call of the function, not in a loop or a repeated timed statement (no LB111). Noted, not labelled: `jax.jit`'s `backend=` argument is deprecated in JAX (an argument, not an import, so not LB113). Code: the file as stored at commit e34d8f4, unchanged.
# static: LB102, LB103, LB104, LB105
# dynamic: n/a
# inferred: LB102 (the clock stops before the rollout is read; not discussed), LB103 (the first call of the freshly jitted rollout is timed; not discussed), LB104 (one timed call; not discussed), LB105 (`time.time()` as the clock; not discussed)
# lines: LB102:24, LB103:24, LB104:23, LB105:22
# first-sight: 858cce0 2026-12-06 py: found none; missed LB102:24, LB103:24, LB104:23, LB105:22; false none | notebook: found none; missed LB102:24, LB103:24, LB104:23, LB105:22; false none

import jax.random as jrandom
import jax
import time
from pax import make
from pax.render.render import render

def run_test_1(console_args):
    env = make("prob_env")
    
    key = jrandom.PRNGKey(env.params["settings"]["seed"])
    keys = jrandom.split(key, 1)
    s = time.time()
    jax_batch_rollout = jax.jit(env.batch_rollout, backend=console_args.device)
    O, A, R, _, _, cr = jax_batch_rollout(keys)
    print(time.time()-s)

    render(env, O, 0, console_args.render)
