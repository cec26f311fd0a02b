# source: https://github.com/rlouf/blog-benchmark-rwmetropolis/blob/c858e0dc02c2c981505cb32635ade59cf7386af9/notebooks/gpu_random_walk_metropolis_jax.ipynb
# title: Rémi Louf's 'JAX + Random Walk Metropolis' Colab notebook (the GPU companion of his blog benchmark): a jitted `lax.fori_loop` Random Walk Metropolis sampler, vmapped over 10 to 10,000,000 chains, each chain count timed with `%timeit -o` of a `sample_jax` call that ends in `.block_until_ready()`, the mean of `t.all_runs` recorded
# established-by: maintainer rlouf (the notebook's author, who wrote it after Matthew Johnson and Hector Yee pointed out a PRNG mistake in his CPU benchmark, as its introduction says; no issue discusses its timing)
# cause: Correct for what the catalogue checks. `sample_jax` waits for the vmapped sampler's positions with `.block_until_ready()` inside the timed statement (no LB102). `%timeit -o` is given no `-n`, so IPython's calibration runs (1, then 10, ... loops until a run lasts 0.2 s) call `sample_jax` before any recorded run: for each new chain count the vmapped, jitted sampler is traced and compiled there, and `t.all_runs` holds only warm runs (no LB103; 245's reading of `-n`, which turns the calibration off, read the other way; no LB117: each new shape is compiled in its own calibration before its figure, 384's reading). `jax.jit` is applied once, by decorator, with `logpdf` and `n_samples` static (no LB111); the fresh `jax.vmap` per call is not a jit. The sampling loop is a `lax.fori_loop` inside the jitted sampler (no LB106, no LB114), and the inputs are made on the device with `jax.random.split` and `np.zeros` (`jax.numpy`; no LB115). A correct doctor stays quiet. Two slips the catalogue has no code for, noted, not labelled: `t.all_runs` are the totals of each run of `loops` calls, so the printed and plotted 'seconds' are ten times the per-call time wherever `%timeit` chose 10 loops (its own '10 loops, best of 3: 22.6 ms per loop' beside '10 chains: 0.229 s'); and `sampler_step` hands the same `key` to every step. `jax.partial`, long removed from JAX, is an attribute, not an import (no LB113). Code: the notebook's JAX cells at commit c858e0d in order, one `# %%` cell each (imports, the kernel, the log-density, the sampler, `sample_jax`, the set-up and the JAX timing loop); the markdown, the outputs, the TensorFlow Probability cells (a mixture target, `sample_tfp` and its two timing loops) and the later cells are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0ba6573 2026-12-06 py: found none; missed none; false LB115:138 | notebook: found none; missed none; false LB115:138

# %%
from functools import partial

import jax
import jax.numpy as np
from jax.scipy.stats import norm
from jax.scipy.special import logsumexp

import tensorflow as tf
import tensorflow_probability as tfp
tfd = tfp.distributions

import numpy as onp

# don't do this at home, warnings are there for a reason
import warnings
warnings.filterwarnings('ignore')

# %%
@partial(jax.jit, static_argnums=(1,))
def rw_metropolis_kernel(rng_key, logpdf, position, log_prob):
    """Moves a single chain by one step using the Random Walk Metropolis algorithm.

    Attributes
    ----------
    rng_key: jax.random.PRNGKey
      Key for the pseudo random number generator.
    logpdf: function
      Returns the log-probability of the model given a position.
    position: np.ndarray, shape (n_dims,)
      The starting position.
    log_prob: float
      The log probability at the starting position.

    Returns
    -------
    Tuple
        The next positions of the chains along with their log probability.
    """
    key1, key2 = jax.random.split(rng_key)
    move_proposal = jax.random.normal(key1, shape=position.shape) * 0.1
    proposal = position + move_proposal
    proposal_log_prob = logpdf(proposal)

    log_uniform = np.log(jax.random.uniform(key2))
    do_accept = log_uniform < proposal_log_prob - log_prob

    position = np.where(do_accept, proposal, position)
    log_prob = np.where(do_accept, proposal_log_prob, log_prob)
    return position, log_prob

# %%
def mixture_logpdf(x):
    """Log probability distribution function of a gaussian mixture model.

    Attribute
    ---------
    x: np.ndarray (4,)
        Position at which to evaluate the probability density function.

    Returns
    -------
    float
        The value of the log probability density function at x.
    """
    dist_1 = jax.partial(norm.logpdf, loc=-2.0, scale=1.2)
    dist_2 = jax.partial(norm.logpdf, loc=0, scale=1)
    dist_3 = jax.partial(norm.logpdf, loc=3.2, scale=5)
    dist_4 = jax.partial(norm.logpdf, loc=2.5, scale=2.8)
    log_probs = np.array([dist_1(x), dist_2(x), dist_3(x), dist_4(x)])
    weights = np.array([0.2, 0.3, 0.1, 0.4])
    return -logsumexp(np.log(weights) + log_probs)

# %%
@partial(jax.jit, static_argnums=(1, 2))
def rw_metropolis_sampler(rng_key, n_samples, logpdf, initial_position):
    """Generate samples using the Random Walk Metropolis algorithm.

    Attributes
    ----------
    rng_key: jax.random.PRNGKey
        Key for the pseudo random number generator.
    n_samples: int
        Number of samples to generate per chain.
    logpdf: function
      Returns the log-probability of the model given a position.
    inital_position: np.ndarray (n_dims, n_chains)
      The starting position.

    Returns
    -------
    (n_samples, n_dim)
    """

    def sampler_step(i, state):
        key, position, log_prob = state
        new_position, new_log_prob = rw_metropolis_kernel(key, logpdf, position, log_prob)
        return (key, new_position, new_log_prob)

    logp = logpdf(initial_position)
    rng_key, position, log_prob = jax.lax.fori_loop(0, n_samples, sampler_step, (rng_key, initial_position, logp))
    return position

# %%
def sample_jax(rng_key, logpdf, n_dim, n_samples, n_chains):
    rng_keys = jax.random.split(rng_key, n_chains)  # (nchains,)
    initial_position = np.zeros((n_dim, n_chains))  # (n_dim, n_chains)
    run_mcmc = jax.vmap(rw_metropolis_sampler, in_axes=(0, None, None, 1),
                        out_axes=1)
    positions = run_mcmc(rng_keys, n_samples, logpdf, initial_position).block_until_ready()
    assert positions.shape == (n_dim, n_chains)

# %%
n_dim=4
n_samples = 1_000
rng_key = jax.random.PRNGKey(42)

chain_lengths = onp.logspace(1, 7, 7)
chains_exec_times = {
    "JAX": [],
    "TFP": [],
    "TFP w/ XLA compilation": []
}

# %%
for n_chains in chain_lengths:
    n_chains = int(n_chains)
    t = %timeit -o sample_jax(rng_key, mixture_logpdf, n_dim, n_samples, n_chains)
    avg = sum(t.all_runs)/(len(t.all_runs))
    chains_exec_times["JAX"].append(avg)
    print("{:,} chains: {:.3} s".format(n_chains, avg))
