# source: https://github.com/blackjax-devs/blackjax/blob/371540e0c35b1de3e314b7dcd57380ce4e30f537/docs/examples/quickstart.md
# title: BlackJAX 'A Quick Introduction to Blackjax' notebook: HMC and NUTS samples drawn through a user-written `inference_loop` (a `lax.scan` over a `@jax.jit` step defined inside the loop function), each sampling and the window adaptation timed in a `%%time` cell
# established-by: maintainer blackjax-devs (BlackJAX's own quickstart page in its documentation)
# cause: The page times each sampling run with `%%time`, and three of the four timed cells end in `.block_until_ready()` on a value computed from every sampled state, so their figures include the sampling (no LB102 there); `%%time` is IPython's one-run readout, not LB104 (the corpus's reading of `%time`). What a correct doctor reports, by the catalogue and the corpus's readings: `inference_loop` builds `one_step` with `@jax.jit` inside its body each time it runs, and neither returns nor stores it, so each of its three calls jits a fresh function and runs a fresh `lax.scan` over it (LB111, at the decorator, the catalogue's 'jitted inside a function that runs repeatedly'); every `%%time` around an `inference_loop` call therefore times a first call that traces and compiles the sampler's step and scan, and nothing in the page says those figures are meant to hold the compile (LB103, at each timed `inference_loop` call; case 244's reading of cold calls under `%time`). The `%%time` cell of the window adaptation stops at `warmup.run(...)`, whose returned state and parameters are not waited for (LB102 at that call; the adaptation's compile is inside BlackJAX's own call, so no LB103 there, the reading of cases 292 and 321). Code: the page's code cells at commit 371540e in order, one `# %%` cell each, the markdown and the cells' `:tags:` metadata left out.
# static: LB111, LB103, LB102
# dynamic: n/a
# inferred: LB111 (`one_step` is jitted afresh inside every `inference_loop` call; not discussed), LB103 (each timed `inference_loop` call compiles; not discussed), LB102 (the adaptation's results are not waited for inside its `%%time` cell; not discussed)
# lines: LB111:49, LB103:61/86/109, LB102:104
# first-sight: 93cdbc0 2026-12-06 py: found LB111:49; missed LB102:104, LB103:61/86/109; false LB111:55 LB102:103 | notebook: found LB111:49; missed LB102:104, LB103:61/86/109; false LB111:55 LB102:103

# %%
import matplotlib.pyplot as plt
import numpy as np

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats

import blackjax
# %%
from datetime import date
rng_key = jax.random.key(int(date.today().strftime("%Y%m%d")))
# %%
loc, scale = 10, 20
observed = np.random.normal(loc, scale, size=1_000)
# %%
def logdensity_fn(loc, log_scale, observed=observed):
    """Univariate Normal"""
    scale = jnp.exp(log_scale)
    logpdf = stats.norm.logpdf(observed, loc, scale)
    return jnp.sum(logpdf)


logdensity = lambda x: logdensity_fn(**x)
# %%
inv_mass_matrix = np.array([0.5, 0.01])
num_integration_steps = 60
step_size = 1e-3

hmc = blackjax.hmc(logdensity, step_size, inv_mass_matrix, num_integration_steps)
# %%
initial_position = {"loc": 1.0, "log_scale": 1.0}
initial_state = hmc.init(initial_position)
initial_state
# %%
hmc_kernel = jax.jit(hmc.step)
# %%
def inference_loop(rng_key, kernel, initial_state, num_samples):
    @jax.jit
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)

    return states
# %%
%%time
rng_key, sample_key = jax.random.split(rng_key)
states = inference_loop(sample_key, hmc_kernel, initial_state, 10_000)

mcmc_samples = states.position
mcmc_samples["scale"] = jnp.exp(mcmc_samples["log_scale"]).block_until_ready()
# %%
fig, (ax, ax1) = plt.subplots(ncols=2, figsize=(15, 6))
ax.plot(mcmc_samples["loc"])
ax.set_xlabel("Samples")
ax.set_ylabel("loc")

ax1.plot(mcmc_samples["scale"])
ax1.set_xlabel("Samples")
ax1.set_ylabel("scale");
# %%
inv_mass_matrix = np.array([0.5, 0.01])
step_size = 1e-3

nuts = blackjax.nuts(logdensity, step_size, inv_mass_matrix)
# %%
initial_position = {"loc": 1.0, "log_scale": 1.0}
initial_state = nuts.init(initial_position)
initial_state
# %%
%%time
rng_key, sample_key = jax.random.split(rng_key)
states = inference_loop(sample_key, nuts.step, initial_state, 4_000)

mcmc_samples = states.position
mcmc_samples["scale"] = jnp.exp(mcmc_samples["log_scale"]).block_until_ready()
# %%
fig, (ax, ax1) = plt.subplots(ncols=2, figsize=(15, 6))
ax.plot(mcmc_samples["loc"])
ax.set_xlabel("Samples")
ax.set_ylabel("loc")

ax1.plot(mcmc_samples["scale"])
ax1.set_xlabel("Samples")
ax1.set_ylabel("scale");
# %%
%%time

warmup = blackjax.window_adaptation(blackjax.nuts, logdensity)
rng_key, warmup_key, sample_key = jax.random.split(rng_key, 3)
(state, parameters), _ = warmup.run(warmup_key, initial_position, num_steps=1000)
# %%
%%time

kernel = blackjax.nuts(logdensity, **parameters).step
states = inference_loop(sample_key, kernel, state, 1_000)

mcmc_samples = states.position
mcmc_samples["scale"] = jnp.exp(mcmc_samples["log_scale"]).block_until_ready()
# %%
fig, (ax, ax1) = plt.subplots(ncols=2, figsize=(15, 6))
ax.plot(mcmc_samples["loc"])
ax.set_xlabel("Samples")
ax.set_ylabel("loc")

ax1.plot(mcmc_samples["scale"])
ax1.set_xlabel("Samples")
ax1.set_ylabel("scale");
