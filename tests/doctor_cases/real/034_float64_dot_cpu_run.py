# source: https://github.com/jax-ml/jax/issues/3832
# explain: dot
# dynamic: none
# Runnable copy of 034_float64_dot_cpu.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax
import jax.numpy as jnp
jax.config.update("jax_enable_x64", True)

chi = 256
dtype = np.float64
dot = jnp.dot


def dot_args():
    return (jnp.ones((chi, chi), dtype=dtype), jnp.ones((chi, chi), dtype=dtype))
