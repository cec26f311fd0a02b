# source: https://github.com/arampatzis-teaching/damsl-281-2025/blob/c71f3c269bc7c99ef75b7aeeb85f9e78db63e0aa/lecture-notes/code/notebooks/04-flax/02-jax.ipynb
# title: damsl-281-2025 course notebook `04-flax/02-jax.ipynb`: the quickstart `selu` timed eager ('Interpreted Mode') and jitted with `%timeit -o` of a `.block_until_ready()` call, after a blocked warm-up, and the ratio of the two averages printed
# established-by: maintainer arampatzis-teaching (the course's lecture notebook on JAX)
# cause: Correct benchmark code. Both timed statements wait for their result (`.block_until_ready()` inside `%timeit`), the jitted `selu_jit` is called once and waited for before its `%timeit` (the cell's 'Warm-up call (compilation happens here)'), and `%timeit -o` repeats each statement and keeps the result object whose averages the cell compares, so no single sample and no compile is in either figure. The eager `selu` is the lesson's deliberate 'interpreted mode' baseline beside its jitted twin, not a loop of dispatches to label LB114 (cases 242, 266, 279), and `%timeit` without `-n` absorbs the eager operations' own first-call compiles in its calibration runs. The notebook's next cell warns that `%timeit jnp.dot(a, b)` without blocking measures only the dispatch. `x_large` is made by `jax.random.normal`, on the device, so no host transfer is timed. No issue discusses the notebook; the reading is the catalogue's. Code: the notebook's code cells at commit c71f3c2 in order, one `# %%` part each, with its two cells on immutability (a `TypeError` demonstration and a mutable-against-immutable comparison, no timing) left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0228b9c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp
import numpy as np
from jax import random

# JAX arrays look like Numpy arrays
x_np = np.arange(10)
x_jax = jnp.arange(10)

print(f"Numpy: {type(x_np)}")
print(f"JAX:   {type(x_jax)}")

# They operate identically for math
print(np.sin(x_np))
print(jnp.sin(x_jax))

# %%
seed = 0
key = jax.random.PRNGKey(seed)

print(f"Initial Key: {key}")

# Generating random numbers
# Notice: If we re-use 'key', we get the SAME numbers.
r1 = jax.random.normal(key, shape=(3,))
r2 = jax.random.normal(key, shape=(3,))

print(f"Random 1: {r1}")
print(f"Random 2: {r2}")
print("They are identical! This ensures absolute reproducibility.")

# %%
# Split the key into:
# 1. A key to use NOW (sub_key)
# 2. A key to save for LATER (new_key)
key, sub_key = jax.random.split(key)

r3 = jax.random.normal(sub_key, shape=(3,))
print(f"New Random 3: {r3}")
print("This is finally different.")

# %%
key = random.key(42)
subkeys = random.split(key, 3)
sequence = np.stack([random.normal(subkey) for subkey in subkeys])
print("individually:", sequence)

key = random.key(42)
print("all at once: ", random.normal(key, shape=(3,)))

# %%
print("vectorized:", jax.vmap(random.normal)(subkeys))

# %%
def selu(x, alpha=1.67, lmbda=1.05):
    return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x_large = jax.random.normal(key, (1_000_000,))

# %%
# 1. Python/JAX (Interpreted Mode)
# It runs operation-by-operation (slow dispatch).
interp_time = %timeit -o selu(x_large).block_until_ready()

# 2. JIT Compiled
# Compiles the whole function into a single XLA kernel.
selu_jit = jax.jit(selu)

# Warm-up call (compilation happens here)
selu_jit(x_large).block_until_ready()

# Benchmark the compiled version
jit_time = %timeit -o selu_jit(x_large).block_until_ready()

print(f"\nJIT is {interp_time.average / jit_time.average:.1f}x faster than interpreted mode.")
