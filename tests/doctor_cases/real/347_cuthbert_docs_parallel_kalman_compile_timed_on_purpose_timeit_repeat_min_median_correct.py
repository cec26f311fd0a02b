# source: https://github.com/state-space-models/cuthbert/blob/4644b3193642358f73ba18b055788c6eac7100d6/docs/examples/temporal_parallelization_kalman.md
# title: cuthbert documentation, 'Temporally-Parallelized Kalman Filter': the sequential and parallel Kalman filters, jitted once, each compile timed with `timeit.Timer(...).timeit(number=1)` of a waited call and reported as 'Compile time', then ten waited runs each with `timeit.Timer(...).repeat(repeat=10, number=1)`, minimum and median reported
# established-by: maintainer state-space-models (the library's documentation example, with its CPU and A100 results)
# cause: Correct benchmark code. `jitted_filter` is built once, outside any timing, with `filter_obj` and `parallel` static; the first call for each `parallel` value is timed once on purpose and named and printed as the compile time (`seq_compile_time`, 'Compile time', the page's own 'compilation times'; the compile timed on purpose of cases 200, 202 and 270: no LB103 or LB104 there), and it warms the executable the runtime samples then reuse. Every timed lambda waits with `jax.block_until_ready(...)`, and the runtimes are ten samples per variant reported as minimum and median, not one reading. `model_inputs` is made by `jnp.arange`, on the device, and the model arrays come from the library's generator before any timing, so no host transfer is timed. No issue discusses the page; the reading is the catalogue's. Code: the page's three Python blocks at commit 4644b31 (setup, compile times, runtimes; the page tangles them into one example script), one `# %%` part each; the prose and the printed results are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit

import jax
import jax.numpy as jnp
import numpy as np

from cuthbert import filter
from cuthbert.gaussian import kalman
from cuthbertlib.kalman.generate import generate_lgssm

seed = 0
x_dim = 20
y_dim = 10
num_time_steps = 1000

m0, chol_P0, Fs, cs, chol_Qs, Hs, ds, chol_Rs, ys = generate_lgssm(
    seed, x_dim, y_dim, num_time_steps
)


def get_init_params(model_inputs):
    return m0, chol_P0


def get_dynamics_params(model_inputs):
    t = model_inputs - 1
    return Fs[t], cs[t], chol_Qs[t]


def get_observation_params(model_inputs):
    t = model_inputs - 1
    return Hs[t], ds[t], chol_Rs[t], ys[t]


filter_obj = kalman.build_filter(
    get_init_params, get_dynamics_params, get_observation_params
)
model_inputs = jnp.arange(num_time_steps + 1)

# %%
jitted_filter = jax.jit(filter, static_argnames=("filter_obj", "parallel"))

seq_compile_time = timeit.Timer(
    lambda: jax.block_until_ready(
        jitted_filter(filter_obj, model_inputs, parallel=False)
    )
).timeit(number=1)
par_compile_time = timeit.Timer(
    lambda: jax.block_until_ready(
        jitted_filter(filter_obj, model_inputs, parallel=True)
    )
).timeit(number=1)

# %%
num_runs = 10

seq_runtimes = timeit.Timer(
    lambda: jax.block_until_ready(
        jitted_filter(filter_obj, model_inputs, parallel=False)
    )
).repeat(repeat=num_runs, number=1)
par_runtimes = timeit.Timer(
    lambda: jax.block_until_ready(
        jitted_filter(filter_obj, model_inputs, parallel=True)
    )
).repeat(repeat=num_runs, number=1)

print("             Sequential | Parallel")
print("-" * 35)
print(f"Compile time  : {seq_compile_time: >7.3f}s | {par_compile_time: >7.3f}s")
print(f"Min runtime   : {np.min(seq_runtimes): >7.3f}s | {np.min(par_runtimes): >7.3f}s")
print(f"Median runtime: {np.median(seq_runtimes): >7.3f}s | {np.median(par_runtimes): >7.3f}s")
