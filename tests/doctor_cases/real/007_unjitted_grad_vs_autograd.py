# source: https://github.com/jax-ml/jax/issues/14185
# title: JAX is much slower than autograd for 1-d functions on CPU
# established-by: maintainer mattjj
# cause: jax.grad without an outer jit runs op by op, and JAX's per-operation dispatch is far costlier than Autograd's on scalars; jit(grad(f)) stages the whole gradient out.
# static: LB114, LB102, LB103, LB105
# dynamic: LB240, LB230
# inferred: LB102 (results of the timed calls are never waited for); LB103 (the first call of grad(f_jit) compiles inside the timing); LB105 (time.time()); LB230 (np.float64 scalars are computed in float32)
# lines: LB114:17, LB102:17, LB103:17, LB105:16

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
