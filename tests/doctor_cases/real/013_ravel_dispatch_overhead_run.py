# source: https://github.com/jax-ml/jax/issues/193
# explain: test_func
# dynamic: LB240
# Runnable copy of 013_ravel_dispatch_overhead.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as np


def test_func():
    result = np.ones((10, 10)).ravel()


def test_func_args():
    return ()
