# source: https://github.com/jax-ml/jax/issues/691
# title: Regression in performance of samplers
# established-by: maintainer mattjj
# cause: A JAX bug at the time: every use of static_argnums recompiled, so each un-jitted jax.random sampler call compiled again (fixed in #692); wrapping the sampler in a jitted function hid it.
# static: LB104, LB105, LB102
# dynamic: n/a
# inferred: LB104 (each figure is one unwarmed time.time() sample of one call); LB105 (time.time()); LB102 (the sampled arrays are never waited for before the clock is read; the thread did not discuss either)
# lines: LB104:14/17/24/27, LB105:13/16/23/26, LB102:14/17/24/27

import time
from jax import random

t = time.time()
random.normal(random.PRNGKey(0), shape=(1,))
print(time.time() - t)
t = time.time()
random.normal(random.PRNGKey(0), shape=(1,))
print(time.time() - t)
# %%
def f():
    return random.normal(random.PRNGKey(0), shape=(1,))

t = time.time()
f()
print(time.time() - t)
t = time.time()
f()
print(time.time() - t)
