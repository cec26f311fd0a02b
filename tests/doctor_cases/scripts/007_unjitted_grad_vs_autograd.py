# case: real/007_unjitted_grad_vs_autograd.py
# form: script
# causes: LB114:14, LB103:14, LB102:14
# changed: the autograd import and its eval line dropped (autograd is not installed); 100 points instead of 1000 (np.arange(0, 1, 0.01))
# note: one interval (line of the closing clock read inside eval) sampled once per method; LB114 for the jax.grad(f) call (op-by-op), LB103 for grad(f_jit) whose first call compiles, LB102 because no result is waited for

import numpy as np
import time
import jax

def eval(df, method):
    start_time = time.time()
    [df(i) for i in np.arange(0, 1, 0.01)]
    print(f"{method}: {(time.time() - start_time)} s")

def f(x): return x**2 + x

@jax.jit
def f_jit(x): return x**2 + x

eval(jax.grad(f), "jax")
eval(jax.grad(f_jit), "jax + jit")
eval(lambda x: 2*x + 1., "analytic")
