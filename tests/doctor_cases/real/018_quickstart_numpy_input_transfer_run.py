# source: https://jax.readthedocs.io/en/latest/notebooks/quickstart.html
# explain: dot_xxt
# dynamic: LB250
# Runnable copy of 018_quickstart_numpy_input_transfer.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax.numpy as jnp


# The timed statement `jnp.dot(x, x.T)` with a NumPy input, 700 x 700 instead of 3000 x 3000.
def dot_xxt(x):
    return jnp.dot(x, x.T)


def dot_xxt_args():
    return (np.random.normal(size=(700, 700)).astype(np.float32),)
