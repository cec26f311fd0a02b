# source: https://github.com/jax-ml/jax/issues/10180
# explain: f
# dynamic: none
# first-sight: 7b74e08 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 166_eigh_vmap_gpu_sequential_timer.py for levelbench.explain: the jitted vmap of
# `eigh` as posted, on 4 symmetric matrices of 64 x 64 instead of 16 of 1024 x 1024.

import jax
import jax.numpy as jnp
from jax.lax.linalg import eigh as jeigh

f = jax.jit(jax.vmap(jeigh))


def f_args():
    y = jax.random.uniform(jax.random.PRNGKey(0), (4, 64, 64)) / 4
    return (jax.block_until_ready(y @ y.transpose(0, 2, 1) + jnp.eye(64)),)
