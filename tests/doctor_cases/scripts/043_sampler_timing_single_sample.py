# case: real/043_sampler_timing_single_sample.py
# form: script
# causes: LB104:12/15/22/25, LB102:12/15/22/25, LB103:12
# changed: none (the posted `# %%` cell marker kept as a comment)
# note: four intervals, each one sample of one call, none waited for (LB104, LB102); only the first contains compilation (LB103): the later calls hit the caches it filled

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
