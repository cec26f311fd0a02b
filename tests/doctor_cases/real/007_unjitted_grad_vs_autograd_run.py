# source: https://github.com/jax-ml/jax/issues/14185
# explain: grad_f, grad_f_jit
# dynamic: LB240, LB230
# Runnable copy of 007_unjitted_grad_vs_autograd.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax


def f(x): return x**2 + x

@jax.jit
def f_jit(x): return x**2 + x

# The two gradients the issue timed, each called on NumPy float64 scalars.
grad_f = jax.grad(f)
grad_f_jit = jax.grad(f_jit)


def grad_f_args():
    return (np.float64(0.5),)


def grad_f_jit_args():
    return (np.float64(0.5),)
