# source: https://github.com/jax-ml/jax/issues/652
# explain: make_A
# dynamic: LB231
# Runnable copy of 004_float64_array_without_x64.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as np


# The posted module-level statement, wrapped in a function so it can be diagnosed.
def make_A(scale):
    A = np.array([[0, 1, 1],
                  [1, 0, 1],
                  [1, 1, 0]], dtype=np.float64)
    return A * scale


def make_A_args():
    return (np.float32(2.0),)
