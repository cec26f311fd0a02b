# source: https://github.com/patrick-kidger/equinox/issues/973
# title: Overhead of filter_jit
# established-by: maintainer patrick-kidger (the measured overhead was real: equinox#976 and #980 reduced it, and his #983, 'eqx.filter_jit should now be faster as it doesn't do an inside-JIT check each time', removed the per-call check that 'adds about ~90μs per call')
# cause: Correct benchmark code: both functions are compiled by ten untimed calls before anything is timed, and each %timeit waits for the result with `.block_until_ready()`, so the 53 µs against 423 µs difference is per-call dispatch overhead of `eqx.filter_jit` on a tiny input, which is what the author set out to measure and what the maintainers then reduced. Code: the snippets as posted (the setup block, then the two %timeit lines, one cell each; the timings printed under them dropped).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 58b08e8 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

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
