# source: https://github.com/brentyi/jaxlie/issues/1
# title: Performance question
# established-by: maintainer brentyi
# cause: The reporter's benchmark included JIT compilation in each timing; the maintainer: 'JIT compilation will happen once for each unique input shape', and his corrected script (posted here) jits the vmapped function and calls it once per shape before timing it. Two faults remain in the corrected script: no timed call is waited for (timeit runs 1000 unblocked calls of jitted functions, so the larger sizes measure dispatch more than work), and `bar` is timed on its first direct call with a (4,) array: it was traced only inside `m`, whose executable does not serve direct calls, so the 1000-call timing of `bar` includes its compilation (the posted 0.0998 s against 0.0021 s for `m` on the same work).
# static: LB102, LB103
# dynamic: n/a
# inferred: LB102 (the thread did not discuss blocking), LB103 (bar's first direct call is inside its timing; the maintainer's answer names the cause, compilation per shape, but not this line)
# lines: LB102:31/36, LB103:31
# first-sight: c3b020c 2026-12-02 py: found LB102:31 LB103:31 LB102:36; missed none; false none | notebook: found LB102:31 LB103:31 LB102:36; missed none; false none

from jaxlie import SE3, SO2, SO3

import jax
from jax import vmap, make_jaxpr
import jax.numpy as jnp
import jax.random

key = jax.random.PRNGKey(0)

@jax.jit
def bar(arr: jnp.array):
    q = SO3(arr)
    return q.as_matrix()

m = jax.jit(vmap(bar))  # New: JIT around the vmapped function
I = jnp.identity(4)[:2]
print(m(I))

import timeit
I = jnp.identity(4)[0]
print(timeit.timeit(lambda: bar(I), number=1000))

for n in range(6):
    I = jax.random.normal(key, (10 ** n, 4))
    m(I)  # New: don't time the first call, whose runtime will be dominated by tracing
    print(n, timeit.timeit(lambda: m(I), number=1000))
