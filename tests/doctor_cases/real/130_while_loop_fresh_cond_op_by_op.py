# source: https://github.com/jax-ml/jax/issues/587
# title: Improve the speed of the first step of while_loop/fori_loop
# established-by: maintainer jekbradbury
# cause: `lax.while_loop` called outside jit is compiled again on every call, even though its body `jf` is already jitted: the maintainer's summary, 'the constructed XLA While and its function arguments are recompiled again for every call'. Each timed statement builds a fresh `lambda x: x < 0`, so on jax 0.10.2 too every call compiles (checked: one backend compile per call with a fresh lambda, none with the same cond object), and both while_loop timings measure compilation. The timings are also unblocked (the results are never read) and use time.time().
# static: LB111, LB102, LB104, LB105
# dynamic: LB210
# inferred: LB102 (no timed result is waited for; the thread did not discuss it), LB105 (time.time() as the interval clock), LB104 (each figure is one time.time() sample of one call; the eager f and both while_loop statements are cold, the while_loop ones compiling again each run)
# lines: LB111:32/36, LB102:21/28/32/36, LB104:21/28/32/36, LB105:20/27/31/35
# first-sight: 8417a81 2026-12-02 py: found LB105:20 LB102:21 LB104:21 LB105:27 LB102:28 LB104:28 LB105:31 LB102:32 LB104:32 LB105:35 LB102:36 LB104:36; missed LB111:32/36; false none | notebook: found LB105:20 LB102:21 LB104:21 LB105:27 LB102:28 LB104:28 LB105:31 LB102:32 LB104:32 LB105:35 LB102:36 LB104:36; missed LB111:32/36; false none

import time
import jax.numpy as np
from jax import jit, lax

def f(x):
    return np.mean(x - np.ones(10000))

x = np.array(0.)

t = time.time()
f(x)
print("time to evaluate f       :", time.time() - t)

jf = jit(f)
jf(x)

t = time.time()
jf(x)
print("time to evaluate jitted f:", time.time() - t)

t = time.time()
lax.while_loop(lambda x: x < 0, jf, np.array(0.))
print("time for while_loop f    :", time.time() - t)

t = time.time()
lax.while_loop(lambda x: x < 0, jf, np.array(0.))
print("time for while_loop f    :", time.time() - t)
