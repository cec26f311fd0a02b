# source: https://github.com/jax-ml/jax/issues/9973
# explain: jax_dot
# dynamic: LB230
# first-sight: 7299de2 2026-12-02 explain: found LB230; missed none; false none
# Runnable copy of 081_tpu_numpy_float64_compare.py for levelbench.explain: the posted JAX
# statements in a function of the two NumPy arrays, which are float64 as NumPy makes them.

import jax.numpy as np
import numpy as onp


def jax_dot(x, y):
    x_ = np.asarray(x)
    y_ = np.asarray(y)
    return np.dot(x_, y_)


def jax_dot_args():
    x = onp.array([[0.3744, 0.1656],
                   [0.4707, 0.1663]])
    y = onp.array([[0.3946, 0.1186],
                   [0.1569, 0.3145]])
    return (x, y)
