# source: https://github.com/jax-ml/jax/issues/772
# title: backward pass of scan is very slow to compile in CPU
# established-by: maintainer hawkinsp
# cause: Compiling the gradient of this small scan took minutes because of an LLVM/XLA code-generation bug, filed with the XLA team; not a usage error.
# static: LB113
# dynamic: none
# inferred: LB113 (`from jax.config import config` fails on jax 0.10.2)
# lines: LB113:12

import jax.numpy as np
from jax import jit, grad, lax
from jax.config import config; config.update("jax_platform_name", "cpu")

def f(s):
    def scan_fn(carry, y_t):
        level, s = carry
        exp_val = (level + 2 * level ** 0.5) * s[0]
        exp_val = np.clip(exp_val, a_min=0)
        level = y_t / s[0] + 0.5 * level
        s = y_t / level + 0.5 * s
        return (level, s), exp_val

    return lax.scan(scan_fn, (1., s), np.ones(80))[1].sum()

jit(grad(f))(np.ones(2))
