# case: real/021_prng_split_compile_growth.py
# form: script
# causes: LB102:19
# changed: `from jax.config import config` -> `from jax import config` (jax.config is no module since jax 0.4.25); range(6) instead of range(17)
# note: not labelled LB103: every sample compiles on purpose (f runs with a new static i each time, and the growth of that compile time is what the script prints and the thread is about); `.copy()` returns before the work is done (LB102, the corpus label). jit(f, ...) is re-created each iteration but jax caches by function, so no LB111

from jax import jit, random
from jax import config; config.update("jax_platform_name", "cpu")
import time

def f(key, i):
    for _ in range(i):
        _, key = random.split(key)
    return key

for i in range(6):
    t = time.time()
    key = jit(f, static_argnums=(1,))(random.PRNGKey(0), i).copy()
    print("split {} times takes {}".format(i, time.time() - t))
