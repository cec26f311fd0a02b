# source: https://github.com/jax-ml/jax/issues/4729
# explain: relu_jit, relu_decorator
# dynamic: none
# Runnable copy of 020_relu_compile_in_time.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as jnp
from jax import jit


def relu_default(x):
  return jnp.maximum(0, x)


@jit
def relu_decorator(x):
  return jnp.maximum(0, x)


relu_jit = jit(relu_default)


def relu_jit_args():
    return (2.0,)


def relu_decorator_args():
    return (2.0,)
