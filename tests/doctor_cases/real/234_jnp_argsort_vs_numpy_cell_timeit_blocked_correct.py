# source: https://github.com/jax-ml/jax/issues/10434
# title: jnp.argsort much slower than the numpy version
# established-by: answer by YouJiacheng (a contributor: 'a pure computational efficiency issue of `sort` primitive', shown with a blocked timing of `jnp.argsort` alone; maintainer jakevdp pointed to the FAQ on comparing JAX with NumPy; the issue is open, labelled bug)
# cause: Correct timing code: `%%timeit` of `np.argsort` on a NumPy copy of the data against `%%timeit` of `jnp.argsort(...).block_until_ready()` on the JAX array, both on CPU (`jax_platform_name` set to cpu). Each JAX run waits for its result, the one-time compile of the eager argsort falls into `%%timeit`'s untimed calibration run, and the input already lives on the device, so the 5x (and, on larger arrays, 20x) gap is XLA's CPU sort against NumPy's, which no code in the catalogue names. Code: the issue's snippet as posted, split into notebook cells at each `%%timeit` (a cell magic must open its cell, as it did in the author's notebook).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f3b9bd0 2026-12-05 py: found none; missed none; false none | notebook: found none; missed none; false none

import numpy as np
import jax.numpy as jnp
from jax import config, random
config.update('jax_platform_name', 'cpu')

key = random.PRNGKey(42)
key, subkey = random.split(key)

x_jnp = random.uniform(subkey, (100, 10000))
x_np = np.array(x_jnp)

# %%
%%timeit
np.argsort(x_np, axis=0)

# %%
%%timeit
jnp.argsort(x_jnp, axis=0).block_until_ready()
