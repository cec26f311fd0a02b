# source: https://docs.jax.dev/en/latest/control-flow.html
# explain: f
# dynamic: none
# first-sight: 43b52af 2026-12-02 explain: found none; missed none; false none
# Runnable copy of 063_short_python_loop_under_jit_correct.py for levelbench.explain: the posted
# function on a small array instead of the Python int 3.

import jax.numpy as jnp
from jax import jit


@jit
def f(x):
  for i in range(3):
    x = 2 * x
  return x


def f_args():
  return (jnp.arange(8.0),)
