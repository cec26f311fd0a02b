# source: https://github.com/jax-ml/jax/issues/24955
# explain: f
# dynamic: LB291
# Runnable copy of 016_debug_nans_error_message.py for levelbench.explain: smallest sizes that keep the pattern.

import jax
import jax.numpy as jnp
jax.config.update("jax_debug_nans", True)


@jax.jit
def f(x, y):
  w = jnp.sin(x) - y**2
  z = jnp.log(w)
  return z*2


def f_args():
    return (0.5, 0)
