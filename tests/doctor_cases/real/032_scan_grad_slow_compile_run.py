# source: https://github.com/jax-ml/jax/issues/772
# explain: grad_f_jit
# dynamic: none
# Runnable copy of 032_scan_grad_slow_compile.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as np
from jax import jit, grad, lax


def f(s):
    def scan_fn(carry, y_t):
        level, s = carry
        exp_val = (level + 2 * level ** 0.5) * s[0]
        exp_val = np.clip(exp_val, min=0)  # a_min= was renamed min=
        level = y_t / s[0] + 0.5 * level
        s = y_t / level + 0.5 * s
        return (level, s), exp_val

    return lax.scan(scan_fn, (1., s), np.ones(80))[1].sum()


grad_f_jit = jit(grad(f))


def grad_f_jit_args():
    return (np.ones(2),)
