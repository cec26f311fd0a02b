# source: https://github.com/jax-ml/jax/issues/4143
# title: Using vmap
# established-by: maintainer jakevdp
# cause: Correct timing code from a maintainer's answer: `jit(vmap(apply_M))` and `vmap(jit(apply_M))` may produce different programs, and %timeit of each call with block_until_ready shows it (318 µs against 470 µs); %timeit discards its calibration runs, so the compile is not in the result. `vmap(jit(f))` is one compiled call per run (the jit inside is batched as a whole), not operations dispatched one by one.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: c3b020c 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax.numpy as jnp
from jax import jit, vmap, random, make_jaxpr

key = random.PRNGKey(1701)
M = random.normal(key, (150, 100))
x = random.normal(key, (10, 100))

def apply_M(v):
  return jnp.dot(M, v)

f1 = jit(vmap(apply_M))
f2 = vmap(jit(apply_M))

%timeit f1(x).block_until_ready()
%timeit f2(x).block_until_ready()
# %%
print(make_jaxpr(f1)(x))
# %%
print(make_jaxpr(f2)(x))
