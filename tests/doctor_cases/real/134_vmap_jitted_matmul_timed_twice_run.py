# source: https://openillumi.com/en/en-jax-async-dispatch-benchmark-guide
# explain: vectorized_function
# dynamic: LB250, LB230
# first-sight: c3b020c 2026-12-02 explain: found LB250 LB230; missed none; false none
# Runnable copy of 134_vmap_jitted_matmul_timed_twice.py for levelbench.explain: the posted vmap of
# the jitted matmul, called as posted on NumPy float64 arrays, 2000 x 100 instead of 1,000,000 x 1,000.

import jax
import numpy as np


@jax.jit
def my_function(x, y):
    return x @ y


vectorized_function = jax.vmap(my_function, in_axes=(0, None))


def vectorized_function_args():
    shape = (2_000, 100)
    return (np.ones(shape), np.ones(shape[1]))
