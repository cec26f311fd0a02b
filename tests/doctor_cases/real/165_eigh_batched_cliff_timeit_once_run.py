# source: https://github.com/jax-ml/jax/issues/31368
# explain: eigenvalues
# dynamic: none
# first-sight: 7b74e08 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 165_eigh_batched_cliff_timeit_once.py for levelbench.explain: the timed lambda as
# a function (the `jax.jit` applied to `jax.lax.linalg.eigh` on every call, as posted), on a batch of
# 64 matrices of 33 x 33 instead of 1024.

import jax
import jax.numpy as jnp


def eigenvalues(a):
    return jax.jit(jax.lax.linalg.eigh)(a)[0]


def eigenvalues_args():
    return (jnp.ones((64, 33, 33)),)
