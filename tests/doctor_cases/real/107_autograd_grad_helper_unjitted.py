# source: https://github.com/jax-ml/jax/issues/14185
# title: JAX is much slower than autograd for 1-d functions on CPU
# established-by: maintainer mattjj
# cause: `jax.grad(f)` and `jax.grad(f_jit)` are called 1000 times from a timing helper without a jit around the gradient: the maintainer's answer, 'Try putting the jax.jit outside the jax.grad', since the more is staged out under one jit the faster it runs; un-jitted, every call differentiates and dispatches the operations one by one (with f_jit inside, the forward pass is one compiled call but the derivative around it is not). The helper's timing has its own faults: nothing waits for the last results before the clock stops, the first call of each gradient (the compile of f_jit's derivative, and of each eager primitive) is inside the timed region, and the clock is time.time().
# static: LB114, LB102, LB103, LB105
# dynamic: LB240
# inferred: LB102 (the timed results are never waited for; the thread did not discuss it), LB103 (the first call of f_jit, through grad, compiles inside the 1000-call timing; not discussed), LB105 (time.time() as the interval clock)
# lines: LB114:18/26/27, LB102:18, LB103:18/27, LB105:17/19
# first-sight: c3b020c 2026-12-02 py: found LB105:17 LB114:18 LB102:18 LB103:18; missed none; false none | notebook: found LB105:17 LB114:18 LB102:18 LB103:18; missed none; false none

import numpy as np
import time
import autograd
import jax

def eval(df, method):
    start_time = time.time()
    [df(i) for i in np.arange(0, 1, 0.001)]
    print(f"{method}: {(time.time() - start_time)} s")

def f(x): return x**2 + x

@jax.jit
def f_jit(x): return x**2 + x

eval(jax.grad(f), "jax")
eval(jax.grad(f_jit), "jax + jit")
eval(autograd.grad(f), "autograd")
eval(lambda x: 2*x + 1., "analytic")
