# source: https://github.com/jax-ml/jax/issues/1172
# title: compiling time grows non-linear w.r.t. the number of random.split ops
# established-by: maintainer mattjj
# cause: Each random.split expanded into unrolled threefry rounds, so compile time grew super-linearly with the number of splits; fixed inside JAX by rolling the PRNG's inner loop (PR 1175).
# static: LB113, LB106, LB105, LB102
# dynamic: LB202, LB270
# inferred: LB113 (`from jax.config import config` fails on jax 0.10.2); LB106 and LB202 (the user's own loop of i splits is unrolled under jit; the thread fixed JAX's internal loop instead); LB105 (time.time()); LB102 (`.copy()` returns before the work is done, though compile time dominates here)
# lines: LB113:11, LB106:15, LB105:20, LB102:21

from jax import jit, random
from jax.config import config; config.update("jax_platform_name", "cpu")
import time

def f(key, i):
    for _ in range(i):
        _, key = random.split(key)
    return key

for i in range(17):
    t = time.time()
    key = jit(f, static_argnums=(1,))(random.PRNGKey(0), i).copy()
    print("split {} times takes {}".format(i, time.time() - t))
