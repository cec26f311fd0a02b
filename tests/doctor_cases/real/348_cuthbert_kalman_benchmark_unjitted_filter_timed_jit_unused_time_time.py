# source: https://github.com/state-space-models/cuthbert/blob/8b8c5e73666f288ef62ee79fee4dd3495c12580a/tests/cuthbertlib/kalman/benchmark.py
# title: cuthbert `tests/cuthbertlib/kalman/benchmark.py`: a parallel-in-time Kalman filter timed ten times with `time.time()` and waited for, the first run printed as 'Compile time' and the rest as mean and spread, but the loop calls the library's un-jitted `filter` while the `offline_filter = jax.jit(filter, ...)` built above it is never used
# established-by: maintainer state-space-models (the library's Kalman filter benchmark script, run by hand on CUDA)
# cause: The script jits the filter as `offline_filter` and then calls `filter`, the library function it imported, in the timed loop, so every run, the 'Compile time' one included, executes the parallel filter outside any compiled program: its associative scan over 1,000 time steps is dispatched operation by operation, ten times (LB114, at the call in the loop: the unused jitted step of case 103, a library function the library leaves to its user to jit, as 313's `solver.update`). The same script in its earlier form, `tests/kalman/benchmark.py` (commit 96a73e0), calls `offline_filter` there; the rename to `cuthbertlib` left the call on the un-jitted name. Each timed call is also handed `m0` and `chol_P0`, NumPy arrays made by `np.random.default_rng`, which are copied to the device inside every sample (LB115, at the call; case 268's fixed NumPy input per call). The interval is read with `time.time()` (LB105, at the start read). The wait is on `filt_states` and the first sample is named as the compile figure on purpose, so no LB102 or LB104 is labelled. No issue discusses the script; the readings are the catalogue's. Code: the file as stored at commit 8b8c5e7, unchanged.
# static: LB105, LB114, LB115
# dynamic: n/a
# inferred: LB114 (the jitted `offline_filter` is never called; the loop times the un-jitted `filter`; not discussed, shown by the file's earlier version), LB115 (NumPy `m0` and `chol_P0` passed to every timed call; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB105:73, LB114:74, LB115:74
# first-sight: f5b8aeb 2026-12-06 py: found LB105:73; missed LB114:74, LB115:74; false none | notebook: found LB105:73; missed LB114:74, LB115:74; false none

import time

import jax
import jax.numpy as jnp
import numpy as np

from cuthbertlib.kalman.filtering import filter

PLATFORM_NAME = "cuda"
jax.config.update("jax_platform_name", PLATFORM_NAME)


def generate_cholesky_factor(rng, dim):
    chol_A = rng.random((dim, dim))
    chol_A[np.triu_indices(dim, 1)] = 0.0
    return chol_A


def generate_trans_model(rng, x_dim):
    F = rng.random((x_dim, x_dim))
    b = rng.random(x_dim)
    chol_Q = generate_cholesky_factor(rng, x_dim)
    return F, b, chol_Q


def generate_obs_model(rng, x_dim, y_dim):
    H = rng.random((y_dim, x_dim))
    c = rng.random(y_dim)
    chol_R = generate_cholesky_factor(rng, y_dim)
    y = rng.random(y_dim)
    return H, c, chol_R, y


seed = 0
x_dim = 20
y_dim = 10
num_time_steps = 1000

offline_filter = jax.jit(filter, static_argnames="parallel")

rng = np.random.default_rng(seed)
m0 = rng.normal(size=x_dim)
chol_P0 = generate_cholesky_factor(rng, x_dim)
F, c, chol_Q = generate_trans_model(rng, x_dim)
H, d, chol_R, y = generate_obs_model(rng, x_dim, y_dim)


def batch_arrays(t, *args):
    out = []
    for arg in args:
        out.append(jnp.repeat(arg[None, ...], t, axis=0))
    return out


# Make copies for T time steps.
Fs, cs, chol_Qs, Hs, ds, chol_Rs, ys = batch_arrays(
    num_time_steps, F, c, chol_Q, H, d, chol_R, y
)

num_runs = 10
runtimes = []
for _ in range(num_runs):
    start_time = time.time()
    filt_states, ell = filter(
        m0, chol_P0, Fs, cs, chol_Qs, Hs, ds, chol_Rs, ys, parallel=True
    )
    jax.block_until_ready(filt_states)
    runtimes.append(time.time() - start_time)

print(f"Compile time: {runtimes[0]:.3f}s")
print(f"Runtime: {np.mean(runtimes[1:]):.3f} pm {np.std(runtimes[1:]):5f}s")
