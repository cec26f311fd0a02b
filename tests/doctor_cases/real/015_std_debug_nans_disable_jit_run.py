# source: https://github.com/jax-ml/jax/issues/22308
# explain: f
# dynamic: LB290, LB291
# Runnable copy of 015_std_debug_nans_disable_jit.py for levelbench.explain: smallest sizes that keep the pattern.

from jax import config
config.update("jax_debug_nans", True)
config.update('jax_disable_jit', True)

import jax.numpy as jnp
import jax


@jax.jit
def f(x):
    z = jnp.std(x)
    return z


def f_args():
    return (jnp.arange(0, 0.5, step=0.1),)
