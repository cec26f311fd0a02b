# source: https://github.com/jax-ml/jax/issues/2160
# explain: einsum, matmul
# dynamic: none
# first-sight: eec90bb 2026-12-03 explain: found none; missed none; false LB270
# Runnable copy of 221_einsum_optimize_slower_than_transpose_matmul_timeit.py for levelbench.explain: the two
# jitted forms as posted (`from jax.api import jit` replaced by `jax.jit`, the removed module), on (10, 8, 8, 3)
# and (20, 8, 8, 3) inputs instead of (100, 20, 20, 3) and (200, 20, 20, 3).

import jax
import jax.numpy as np
import jax.random as random


@jax.jit
def matmul(a, b):
    return np.transpose(np.matmul(np.transpose(a, axes=(1, 2, 0, 3)), np.transpose(b, axes=(1, 2, 3, 0))), axes=(2, 3, 0, 1))


@jax.jit
def einsum(a, b):
    return np.einsum('nxyc,mxyc->nmxy', a, b, optimize=True)


def matmul_args():
    return (random.normal(random.PRNGKey(1), (10, 8, 8, 3)), random.normal(random.PRNGKey(2), (20, 8, 8, 3)))


def einsum_args():
    return (random.normal(random.PRNGKey(1), (10, 8, 8, 3)), random.normal(random.PRNGKey(2), (20, 8, 8, 3)))
