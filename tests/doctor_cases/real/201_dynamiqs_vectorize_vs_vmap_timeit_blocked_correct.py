# source: https://github.com/dynamiqs/dynamiqs/pull/562
# title: Add new batching API for time arrays and support for ND batching (a maintainer's micro-benchmark in the review: jnp.vectorize against nested vmap)
# established-by: maintainer pierreguilmin (his own measurement in the review, on which the PR's remaining concern about flat vectorization rests)
# cause: Correct benchmark code: both candidates are jitted (`jax.jit(jnp.vectorize(...))` and a jitted triple `vmap` over a broadcast operand), each is called once before it is timed so compilation stays out of the figure, and each `%timeit` waits for the result with `.block_until_ready()`; the inputs are device arrays built once. The 3.28 ms against 7.31 ms difference is the two programs, not a measuring artefact. Code: the snippet as posted in the review comment.
# static: none
# dynamic: none
# inferred: none
# lines: none
# first-sight: 88e72af 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp

def f(A, B):
    return A.T @ B.T

A = jnp.ones((7, 8, 9, 64, 64))
B = jnp.ones((64, 64))

# === JAX vectorize
f1 = jax.jit(jnp.vectorize(f, signature='(n,n),(n,n)->(n,n)'))
f1(A, B)
%timeit f1(A, B).block_until_ready()

# === homemade vectorize
@jax.jit
def f2(A, B):
    B = jnp.broadcast_to(B, A.shape)
    return jax.vmap(jax.vmap(jax.vmap(f)))(A, B)

f2(A, B)
%timeit f2(A, B).block_until_ready()
