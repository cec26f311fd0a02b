# source: https://github.com/dynamiqs/dynamiqs/pull/562
# explain: f1, f2
# dynamic: none
# first-sight: 88e72af 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 201_dynamiqs_vectorize_vs_vmap_timeit_blocked_correct.py for levelbench.explain: the two
# jitted candidates as posted, on a (2, 3, 4, 32, 32) batch instead of (7, 8, 9, 64, 64).

import jax
import jax.numpy as jnp


def f(A, B):
    return A.T @ B.T


f1 = jax.jit(jnp.vectorize(f, signature='(n,n),(n,n)->(n,n)'))


@jax.jit
def f2(A, B):
    B = jnp.broadcast_to(B, A.shape)
    return jax.vmap(jax.vmap(jax.vmap(f)))(A, B)


def f1_args():
    return (jnp.ones((2, 3, 4, 32, 32)), jnp.ones((32, 32)))


def f2_args():
    return (jnp.ones((2, 3, 4, 32, 32)), jnp.ones((32, 32)))
