# case: real/018_quickstart_numpy_input_transfer.py
# form: ipython
# causes: LB115:20
# changed: size = 300 instead of 3000

import jax.numpy as jnp
from jax import grad, jit, vmap
from jax import random
# %%
key = random.key(0)
x = random.normal(key, (10,))
print(x)
# %%
size = 300
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
