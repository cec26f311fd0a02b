# source: https://mint.westdri.ca/ai/jx_parallel
# title: Marie-Hélène Burle, 'Parallel computing' (a JAX course of the Western Canada research computing training site): `timeit.timeit("jnp.dot(x, y)")` against `timeit.timeit("jnp.dot(x, y).block_until_ready()")`
# established-by: answer by Marie-Hélène Burle (the page's author: timing `jnp.dot(x, y)` 'would not give us the time it takes for the computation to take place, but the time it takes to dispatch the computation'; the blocked form is 'the true timing')
# cause: The page shows the fault on purpose and then its fix. The first `timeit.timeit` of the statement string `"jnp.dot(x, y)"` (1000 runs, 0.515 ms each on the author's GPU) never waits for a result, so it times the dispatch; the second adds `.block_until_ready()` (0.597 ms). Both are warm (`z = jnp.dot(x, y)` ran before) and pass `globals=globals()`, so the statement sees the device arrays. Code: the page's three code blocks of 'Asynchronous dispatch', one cell each, the printed results dropped. The stored copies of the page garble the blocks (one puts each assignment's target at the start of the next line, the other drops `jnp.dot(x`), and the code is restored from the two together; the rest of the page (vmap, pmap) is not in the stored copies.
# static: LB102
# dynamic: n/a
# inferred: none
# lines: LB102:20
# first-sight: 12e883c 2026-12-06 py: found LB102:20; missed none; false none | notebook: found LB102:20; missed none; false none

import jax.numpy as jnp
from jax import random

x = random.normal(random.PRNGKey(0), (1000, 1000))
y = random.normal(random.PRNGKey(0), (1000, 1000))
z = jnp.dot(x, y)
# %%
import timeit

timeit.timeit("jnp.dot(x, y)",
              number=1000, globals=globals())/1000
# %%
timeit.timeit("jnp.dot(x, y).block_until_ready()",
              number=1000, globals=globals())/1000
