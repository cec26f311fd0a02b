# source: https://github.com/charlyandral/pdmp_jax/blob/9061d553c76b770ee041db5b2c87ff141809bd33/benchmark.py
# title: pdmp_jax's `benchmark.py` (piecewise-deterministic Markov process samplers in JAX): a 50-dimensional ZigZag sampler on a banana-shaped potential, warmed by `sampler.sample(1, 1, ...)`, then one run of a million skeleton points and samples between two `time()` reads, waited with `.block_until_ready()`, printed as 'Time'
# established-by: maintainer charlyandral (the library's own benchmark script; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The run is waited for (`.block_until_ready()` on the samples; no LB102) and the sampler was called once before (no LB103 claimed: whether the million-point call reuses what the one-point warm-up compiled depends on the library's internals, which the file does not show), but the figure is one sample, one clock read before and one after a single call (LB104 at the first statement inside the clock pair, the `sample = sampler.sample(` line), and the clock is `time()` imported from `time` (LB105 at the `start = time()` and `end = time()` lines). `jax_enable_x64` is set before anything runs (no LB108). Code: the file as stored at commit 9061d55, unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (one timed run reported as the figure; not discussed), LB105 (`time()` from the time module as the interval clock, as elsewhere in the corpus; not discussed)
# lines: LB104:41, LB105:40/44
# first-sight: a0c2c7e 2026-12-07 py: found LB105:40; missed LB104:41; false none | notebook: found LB105:40; missed LB104:41; false none

import jax

jax.config.update("jax_enable_x64", True)
# NB: this is not necessary, but it is useful to avoid numerical issues. It must be done before importing pdmp_jax.

from time import time

import jax.numpy as jnp

import pdmp_jax as pdmp


def U(x):
    mean_x2 = x[0] ** 2 - 1
    return -(-(x[0] ** 2) + -((x[1] - mean_x2) ** 2) - jnp.sum((x[2:]) ** 2)) / 2


dim = 50
# define the gradient of the potential
grad_U = jax.grad(U)
seed = 8
key = jax.random.PRNGKey(seed)
xinit = jnp.ones((dim,))  # initial position
vinit = jnp.ones((dim,))  # initial velocity
grid_size = 10
N = 1000000  # number of samples
sampler = pdmp.ZigZag(dim, grad_U, grid_size)
sampler.sample(1, 1, xinit, vinit, seed, verbose=False)

start = time()
sample = sampler.sample(
    N_sk=N, N_samples=N, xinit=xinit, vinit=vinit, seed=seed, verbose=False
).block_until_ready()
end = time()

print(f"Time: {end - start}")
