# source: https://github.com/jax-ml/jax/issues/1333
# explain: ones_float64
# dynamic: LB231
# first-sight: 43b52af 2026-12-02 explain: found LB231; missed none; false none
# Runnable copy of 048_ones_float64_truncated.py for levelbench.explain: the posted statement in a
# function (the issue shows no imports; jax and NumPy as np are what its names refer to).

import jax
import numpy as np


def ones_float64(scale):
    a = jax.numpy.ones((2,2), dtype=np.float64)
    return a * scale


def ones_float64_args():
    return (np.float32(3.0),)
