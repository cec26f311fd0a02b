# source: https://jax.readthedocs.io/en/latest/notebooks/quickstart.html
# explain: naively_batched_apply_matrix, vmap_batched_apply_matrix
# dynamic: LB240
# Runnable copy of 019_quickstart_naive_batching.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as jnp
from jax import jit, vmap
from jax import random

key = random.key(0)
mat = random.normal(key, (150, 100))
batched_x = random.normal(key, (10, 100))


def apply_matrix(v):
  return jnp.dot(mat, v)


def naively_batched_apply_matrix(v_batched):
  return jnp.stack([apply_matrix(v) for v in v_batched])


@jit
def vmap_batched_apply_matrix(v_batched):
  return vmap(apply_matrix)(v_batched)


def naively_batched_apply_matrix_args():
    return (batched_x,)


def vmap_batched_apply_matrix_args():
    return (batched_x,)
