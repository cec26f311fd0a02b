# source: https://github.com/jax-ml/jax/issues/12999
# explain: split_all
# dynamic: LB252
# first-sight: 7b74e08 2026-12-03 explain: found LB252; missed none; false none
# Runnable copy of 173_jnp_split_compile_per_slice_time.py for levelbench.explain: the timed
# `jnp.split` as a function, on 500 elements split every 10 (50 pieces) instead of 5000 every 10.

import jax.numpy as jnp


def split_all(x):
    return jnp.split(x, jnp.arange(0, 500, 10))


def split_all_args():
    return (jnp.ones(500),)
