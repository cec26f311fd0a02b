# source: https://github.com/jax-ml/jax/issues/691
# title: Regression in performance of samplers (entered again: retired case 154 with LB103 taken out of its labels)
# established-by: maintainer mattjj ('This was an issue with all uses of `static_argnums`'; fixed by jax-ml/jax#692)
# cause: Both timings of `random.normal(random.PRNGKey(0), shape=(1,))` took about 0.12 s because a JAX bug in how jit handled `static_argnums` made the sampler compile again on every call; wrapping it in `f` only hid that. The timings themselves also measure less than they claim: each is one time.time() sample of one call whose result is not waited for, and the first timing of the script is the sampler's first call, so it includes compiling it whatever JAX version runs it. (Entered first as case 154 with LB103 at that first timing; retired 2026-12-03 because LB103's catalogue entry is the first call of a function the file jits, and the cold first call of one of JAX's own operations is named by LB104 (one sample, 'unwarmed, it also carries the one-time costs (compilation, ...)'), which this case has at the same line; case 043, the same thread and the same code, is labelled so. benchmarks/first_call_compile.py measured that every eager JAX operation compiles on first use, so a scope of 'JAX's own jitted functions' has no ground, and LB103 for every first timed JAX call would put it on ten other cases whose labels leave it out (docs/notes/doctor-accuracy.md, 'LB103 and JAX's own functions'). Other labels and lines unchanged.) Code: the issue's two snippets as posted, one cell each.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (no timed call is waited for; not discussed), LB104 (every figure is one sample of one call; the script's first timing, the sampler's first call, also holds its compile), LB105 (time.time() as the interval clock); the established cause, a JAX bug that recompiled on every call, has no static code
# lines: LB102:15/18/25/28, LB104:15/18/25/28, LB105:14/17/24/27
# first-sight: 58b08e8 2026-12-03 py: found LB105:14 LB102:15 LB104:15 LB105:17 LB102:18 LB104:18 LB105:24 LB102:25 LB104:25 LB105:27 LB102:28 LB104:28; missed none; false none | notebook: found LB105:14 LB102:15 LB104:15 LB105:17 LB102:18 LB104:18 LB105:24 LB102:25 LB104:25 LB105:27 LB102:28 LB104:28; missed none; false none

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
