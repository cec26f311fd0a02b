# source: https://github.com/jax-ml/jax/issues/33004
# explain: f, g
# dynamic: none
# first-sight: eec90bb 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 226_einsum_broadcast_small_matrix_time_timeit.py for levelbench.explain: the two jitted forms
# as posted, on a (20,000, 3) batch instead of (1,000,000, 3) and the posted 3x3 matrix.

import jax
import jax.numpy as jnp


@jax.jit
def f(a, A):
    return jnp.einsum("...i,...ij->...j", a, A)


@jax.jit
def g(a, A):
    shape = jnp.broadcast_shapes(a.shape[:-1], A.shape[:-2])
    a_b = jnp.broadcast_to(a, shape + a.shape[-1:])
    A_b = jnp.broadcast_to(A, shape + A.shape[-2:])
    return f(a_b, A_b)


def f_args():
    key = jax.random.PRNGKey(0)
    return (jax.random.normal(key=key, shape=(20_000, 3)), jax.random.normal(key=key, shape=(3, 3)))


def g_args():
    key = jax.random.PRNGKey(0)
    return (jax.random.normal(key=key, shape=(20_000, 3)), jax.random.normal(key=key, shape=(3, 3)))
