# source: https://jax.readthedocs.io/en/latest/notebooks/quickstart.html
# title: JAX Quickstart (Multiplying Matrices)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: The quickstart shows that jnp.dot on a NumPy array is slower because the array is copied to the device on every call; device_put once takes the copy out of the timing.
# static: LB115
# dynamic: LB250
# inferred: none
# lines: LB115:24

import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
# %%
key = random.key(0)
x = random.normal(key, (10,))
print(x)
# %%
size = 3000
x = random.normal(key, (size, size), dtype=jnp.float32)
%timeit jnp.dot(x, x.T).block_until_ready()  # runs on the GPU
# %%
import numpy as np
x = np.random.normal(size=(size, size)).astype(np.float32)
%timeit jnp.dot(x, x.T).block_until_ready()
# %%
from jax import device_put

x = np.random.normal(size=(size, size)).astype(np.float32)
x = device_put(x)
%timeit jnp.dot(x, x.T).block_until_ready()
