# source: https://github.com/blackjax-devs/blackjax/pull/711
# title: Fixing typo in example on index page - leading to 30x faster runtime.
# established-by: maintainer AdrienCorenflos (approved and merged; the PR: 'The jitted step remained unused, leading to the example running with an uncompiled nuts.step')
# cause: The Hello World on BlackJAX's index page jits the kernel step (`step = jax.jit(nuts.step)`) and then calls the unjitted `nuts.step` in its 1,000-step Python loop, so every step runs the kernel op by op outside any compiled program; calling `step` instead made the example about 30x faster. Code: the page's Hello World block before the fix.
# static: LB114
# dynamic: n/a
# inferred: none
# lines: LB114:40/42
# first-sight: 8417a81 2026-12-02 py: found none; missed LB114:40/42; false none | notebook: found none; missed LB114:40/42; false none

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats
import numpy as np


import blackjax


observed = np.random.normal(10, 20, size=1_000)
def logdensity_fn(x):
    logpdf = stats.norm.logpdf(observed, x["loc"], x["scale"])
    return jnp.sum(logpdf)


# Build the kernel
step_size = 1e-3
inverse_mass_matrix = jnp.array([1., 1.])
nuts = blackjax.nuts(logdensity_fn, step_size, inverse_mass_matrix)


# Initialize the state
initial_position = {"loc": 1., "scale": 2.}
state = nuts.init(initial_position)


# Iterate
rng_key = jax.random.key(0)
step = jax.jit(nuts.step)
for _ in range(1_000):
    rng_key, nuts_key = jax.random.split(rng_key)
    state, _ = nuts.step(nuts_key, state)
