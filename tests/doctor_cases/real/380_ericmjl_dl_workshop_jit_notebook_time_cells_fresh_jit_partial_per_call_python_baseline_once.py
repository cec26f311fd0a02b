# source: https://github.com/ericmjl/dl-workshop/blob/4aaaf0f762947c0ab61e07a654c94d8cc7d2179c/notebooks/02-jax-idioms/04-jit.ipynb
# title: Eric Ma's deep learning workshop, 'JAX idioms' chapter, notebook 04-jit: the quickstart `selu` timed eager and jitted with `%timeit`, then a Gaussian random walk in pure Python, in JAX with `vmap` over `lax.scan`, and 'with JIT compilation', each timed once between two `time()` reads and then with `%timeit`; the notebook concludes that 'JIT-compilation doesn't appear to do much'
# established-by: maintainer ericmjl (the workshop's own course notebook; no issue discusses its timing)
# cause: The two `selu` cells are sound: both wait with `block_until_ready`, and `%timeit` without `-n` absorbs the jitted function's compile in its calibration runs (the catalogue's LB103 note); the eager `selu` is the page's deliberate baseline beside its jitted twin (no LB114, the reading of 242). What a correct doctor reports on the random walks, by the catalogue and the corpus's readings: `gaussian_random_walk_jit` applies `jit(partial(grw_draw, num_steps=num_timesteps))` inside itself, to a fresh `partial` on every call, so every call traces and compiles the scan again, the `%timeit` repeats included (LB111 at the `jit` line, case 083's reading; the notebook's 'JIT-compilation doesn't appear to do much' is what timing a compile per call looks like); its first call is timed between two `time()` reads (LB103 at the timed call, 083's reading; the `%timeit` that follows does not make it a compile timed on purpose for LB103, the reading of 244 and 020). The pure-Python walk is timed once and never again (LB104 at the first statement inside the clock pair, the reading of 282/289), and every interval is read with `time()` (LB105 at the three start reads). The two JAX walks are each timed once and then again with `%timeit` right after, waited for both times, so their single `time()` samples are the first-call figures the next cell repeats warm (no LB104 there, the catalogue's exception); the un-jitted JAX walk is the page's baseline, its `lax.scan` one primitive under `vmap` (no LB114, no LB103: the file does not jit it, the reading of 197). Code: the notebook's code cells at commit 4aaaf0f in order, one `# %%` cell each (the markdown left out; the notebook was committed without outputs).
# static: LB103, LB111, LB104, LB105
# dynamic: n/a
# inferred: LB103 (the jitted walk's first call timed once between `time()` reads; not discussed), LB111 (`jit` of a fresh `partial` inside the timed function, compiled again on every call; not discussed, though the notebook reports the missing speed-up), LB104 (the pure-Python walk timed once; not discussed), LB105 (`time()` as the interval clock; not discussed)
# lines: LB103:137, LB111:131, LB104:61, LB105:60/109/136
# first-sight: 35efc1f 2026-12-06 py: found LB105:60 LB104:61 LB105:109 LB111:131 LB105:136; missed LB103:137; false LB104:110 LB103:110 LB104:137 | notebook: found LB105:60 LB104:61 LB105:109 LB111:131 LB105:136; missed LB103:137; false LB104:110 LB103:110 LB104:137

# %%
%load_ext autoreload
%autoreload 2
%matplotlib inline
%config InlineBackend.figure_format = 'retina'

# %%
import jax.numpy as np


def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * np.where(x > 0, x, alpha * np.exp(x) - alpha)

# %%
from time import time

from jax import random

key = random.PRNGKey(44)
x = random.normal(key, (1000000,))
%timeit selu(x).block_until_ready()

# %%
from jax import jit

selu_jit = jit(selu)

%timeit selu_jit(x).block_until_ready()

# %%
import numpy as onp


def gaussian_random_walk_python(num_realizations, num_timesteps):
    rws = []
    for i in range(num_realizations):
        rw = []
        prev_draw = 0
        for t in range(num_timesteps):
            prev_draw = onp.random.normal(loc=prev_draw)
            rw.append(prev_draw)
        rws.append(rw)
    return rws

# %%
from time import time

N_REALIZATIONS = 1_000
N_TIMESTEPS = 10_000
start = time()
trajectories_python = gaussian_random_walk_python(N_REALIZATIONS, N_TIMESTEPS)
end = time()
print(f"{end - start:.2f} seconds")

# %%
import matplotlib.pyplot as plt
import seaborn as sns

for trajectory in trajectories_python[:20]:
    plt.plot(trajectory)
sns.despine()

# %%
from jax import lax, random

key = random.PRNGKey(44)
keys = random.split(key, N_TIMESTEPS)


def new_draw(prev_val, key):
    """lax.scannable function for drawing a new draw from the GRW."""
    new = prev_val + random.normal(key)
    return new, prev_val


def grw_draw(key, num_steps):
    """One GRW draw over a bunch of steps."""
    keys = random.split(key, num_steps)
    final, draws = lax.scan(new_draw, 0.0, keys)
    return final, draws

# %%
from functools import partial

from jax import vmap


def gaussian_random_walk_jax(num_realizations, num_timesteps):
    """Multiple GRW draws."""
    keys = random.split(key, num_realizations)
    grw_k_steps = partial(grw_draw, num_steps=num_timesteps)
    final, trajectories = vmap(grw_k_steps)(keys)
    return final, trajectories

# %%
from jax import random

key = random.PRNGKey(42)
start = time()
final_jax, trajectories_jax = gaussian_random_walk_jax(
    N_REALIZATIONS, N_TIMESTEPS
)
trajectories_jax.block_until_ready()
end = time()
print(f"{end - start:.2f} seconds")

# %%
%timeit gaussian_random_walk_jax(N_REALIZATIONS, N_TIMESTEPS)[1].block_until_ready()

# %%
for trajectory in trajectories_jax[:20]:
    plt.plot(trajectory)
sns.despine()

# %%
from jax import jit


def gaussian_random_walk_jit(num_realizations, num_timesteps):
    keys = random.split(key, num_realizations)
    grw_k_steps = jit(partial(grw_draw, num_steps=num_timesteps))
    final, trajectories = vmap(grw_k_steps)(keys)
    return final, trajectories

# %%
start = time()
final_jit, trajectories_jit = gaussian_random_walk_jit(
    N_REALIZATIONS, N_TIMESTEPS
)
trajectories_jit.block_until_ready()
end = time()
print(f"{end - start:.2f} seconds")

# %%
%timeit gaussian_random_walk_jit(N_REALIZATIONS, N_TIMESTEPS)[1].block_until_ready()

# %%
for trajectory in trajectories_jit[:20]:
    plt.plot(trajectory)
sns.despine()
