# source: https://github.com/jax-ml/jax/issues/4865
# explain: g
# dynamic: LB230, LB240
# Runnable copy of 012_concatenate_unblocked_loop.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax.numpy as jnp


def g(x, y):
    return jnp.concatenate((x, y))


def g_args():
    return (np.ones(5), np.ones(6))
