# source: https://github.com/blackjax-devs/blackjax/blob/1b8ee70f40605bfe3eee36ba8d528ede494bd333/docs/examples/howto_sample_multiple_chains.md
# title: BlackJAX 'Sample with multiple chains in parallel' notebook: NUTS chains run with `jax.vmap` inside a scanned step against one chain per CPU device through `jax.jit(jax.shard_map(...))`, each run timed once in a `%%time` cell and waited with `.block_until_ready()`
# established-by: maintainer blackjax-devs (BlackJAX's own how-to page in its documentation)
# cause: The page compares two ways of running many chains ('it takes several minutes with `jax.vmap` and a few seconds with device-parallel execution') from one `%%time` figure each. Both timed cells wait for the sampled positions with `.block_until_ready()` (no LB102), and `%%time` is IPython's one-run readout, not LB104 (the corpus's reading of `%time`). What a correct doctor reports, by the catalogue and the corpus's readings: nothing runs either sampler before its `%%time` cell, so each figure holds the first call's trace and compile: `inference_loop_multiple_chains` jits its `one_step` and scans it for the first time inside the first timed cell, and the second timed cell builds `jax.jit(jax.shard_map(run_one_chain, ...))` inside the timed statement and calls it at once (LB103 at both timed calls; case 083's and 244's reading of cold calls under `%time`, and the page's prose does not say its figures hold the compile). Jitting a fresh `shard_map` wrapper inside the timed statement is also the catalogue's LB111 (`jax.jit` applied inside a timed statement; case 083 labels both codes for a jit built where it is timed). The nested `@jax.jit` inside `inference_loop` runs once per trace of `run_one_chain` and `inference_loop_multiple_chains` is called once, so no LB111 there. Code: the page's code cells at commit 1b8ee70 in order, one `# %%` cell each (the first is a `remove-cell` cell setting `XLA_FLAGS`, kept as stored); the markdown, a non-executed ```python``` block repeating that setting, and the cells' `:tags:` metadata left out.
# static: LB103, LB111
# dynamic: n/a
# inferred: LB103 (both timed runs are first calls that compile; not discussed), LB111 (the `shard_map` runner is jitted inside its `%%time` cell; not discussed)
# lines: LB103:89/110, LB111:110
# first-sight: 93cdbc0 2026-12-06 py: found LB103:110; missed LB111:110; false LB111:44 LB111:50 LB111:73 LB111:80 | notebook: found LB103:110; missed LB111:110; false LB111:44 LB111:50 LB111:73 LB111:80

# %%
import os
import multiprocessing

os.environ["XLA_FLAGS"] = "--xla_force_host_platform_device_count={}".format(
    multiprocessing.cpu_count()
)
# %%
import numpy as np

import jax
import jax.numpy as jnp
import jax.scipy.stats as stats


loc, scale = 10, 20
observed = np.random.normal(loc, scale, size=1_000)


def logdensity_fn(loc, log_scale, observed=observed):
    """Univariate Normal"""
    scale = jnp.exp(log_scale)
    logjac = log_scale
    logpdf = stats.norm.logpdf(observed, loc, scale)
    return logjac + jnp.sum(logpdf)


def logdensity(x):
    return logdensity_fn(**x)


def inference_loop(rng_key, kernel, initial_state, num_samples):

    @jax.jit
    def one_step(state, rng_key):
        state, _ = kernel(rng_key, state)
        return state, state

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)

    return states
# %%
from datetime import date
rng_key = jax.random.key(int(date.today().strftime("%Y%m%d")))
# %%
import blackjax


inv_mass_matrix = np.array([0.5, 0.01])
step_size = 1e-3

nuts = blackjax.nuts(logdensity, step_size, inv_mass_matrix)
# %%
import multiprocessing

num_chains = multiprocessing.cpu_count()
# %%
def inference_loop_multiple_chains(
    rng_key, kernel, initial_state, num_samples, num_chains
):

    @jax.jit
    def one_step(states, rng_key):
        keys = jax.random.split(rng_key, num_chains)
        states, _ = jax.vmap(kernel)(keys, states)
        return states, states

    keys = jax.random.split(rng_key, num_samples)
    _, states = jax.lax.scan(one_step, initial_state, keys)

    return states
# %%
initial_positions = {"loc": np.ones(num_chains), "log_scale": np.ones(num_chains)}
initial_states = jax.vmap(nuts.init, in_axes=(0))(initial_positions)
# %%
%%time
rng_key, sample_key = jax.random.split(rng_key)
states = inference_loop_multiple_chains(
    sample_key, nuts.step, initial_states, 2_000, num_chains
)
_ = states.position["loc"].block_until_ready()
# %%
len(jax.devices())
# %%
from jax.sharding import Mesh, NamedSharding, PartitionSpec as P

mesh = jax.make_mesh((num_chains,), ('chain',))
sharding = NamedSharding(mesh, P('chain'))
# %%
rng_key, sample_key = jax.random.split(rng_key)
sample_keys = jax.device_put(jax.random.split(sample_key, num_chains), sharding)
initial_states_sharded = jax.device_put(initial_states, sharding)
# %%
def run_one_chain(key, state):
    result = inference_loop(key[0], nuts.step, jax.tree.map(lambda x: x[0], state), 2_000)
    return jax.tree.map(lambda x: x[None], result)
# %%
%%time
sharded_states = jax.jit(jax.shard_map(
    run_one_chain,
    mesh=mesh,
    in_specs=(P('chain'), P('chain')),
    out_specs=P('chain'),
    check_vma=False,
))(sample_keys, initial_states_sharded)
_ = sharded_states.position["loc"].block_until_ready()
# %%
states.position["loc"].shape, sharded_states.position["loc"].shape
