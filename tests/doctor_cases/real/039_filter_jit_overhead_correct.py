# source: https://github.com/patrick-kidger/equinox/issues/973
# title: Overhead of filter_jit
# established-by: maintainer patrick-kidger
# cause: A sound micro-benchmark (warmed up, blocked) that exposed real per-call overhead in eqx.filter_jit, which the maintainer then reduced in PR 983.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

import equinox as eqx
import jax
import jax.numpy as jnp


model = eqx.nn.Identity()
x = jnp.zeros((1,1))

@eqx.filter_jit
def fwd_eqx(m, x):
    return m(x)

@jax.jit
def fwd_jax(m, x):
    return m(x)

# Make sure everything is jit compiled
for _ in range(10):
    fwd_eqx(model, x)
    fwd_jax(model, x)
# %%
%timeit fwd_jax(model, x).block_until_ready()
# %%
%timeit fwd_eqx(model, x).block_until_ready()
