# source: https://github.com/jax-ml/jax/issues/587
# title: Improve the speed of the first step of while_loop/fori_loop
# established-by: maintainer jekbradbury
# cause: `lax.while_loop` called outside jit is compiled again on every call, even though its body `jf` is already jitted: the maintainer's summary, 'the constructed XLA While and its function arguments are recompiled again for every call'. Each timed statement builds a fresh `lambda x: x < 0`, so on jax 0.10.2 too every call compiles (checked: one backend compile per call with a fresh lambda, none with the same cond object), and both while_loop timings measure compilation. The timings are also unblocked (the results are never read) and use time.time().
# static: LB111, LB102, LB105
# dynamic: LB210
# inferred: LB102 (no timed result is waited for; the thread did not discuss it), LB105 (time.time() as the interval clock)
# lines: LB111:31/35, LB102:20/27/31/35, LB105:19/26/30/34

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
