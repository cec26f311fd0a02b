# source: https://jax.readthedocs.io/en/latest/notebooks/quickstart.html
# explain: selu_jit
# dynamic: none
# Runnable copy of 041_quickstart_selu_correct.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as jnp
from jax import jit
from jax import random


def selu(x, alpha=1.67, lmbda=1.05):
  return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


selu_jit = jit(selu)


def selu_jit_args():
    return (random.normal(random.key(0), (100000,)),)
