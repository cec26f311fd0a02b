# source: https://github.com/jax-ml/jax/issues/9694
# explain: log_abs_det, lu_factor
# dynamic: none
# first-sight: 58b08e8 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 160_jax_slogdet_a100_timeit_correct.py for levelbench.explain: the two timed
# expressions of the maintainer's session as functions, on a 256 x 256 matrix instead of 4096 x 4096.

import jax.lax as lax
import jax.numpy as jnp
import numpy as np


def log_abs_det(A):
    return jnp.linalg.slogdet(A)[1]


def lu_factor(A):
    return lax.linalg.lu(A)[0]


def log_abs_det_args():
    return (jnp.array(np.random.default_rng(0).normal(size=(256, 256))),)


def lu_factor_args():
    return (jnp.array(np.random.default_rng(0).normal(size=(256, 256))),)
