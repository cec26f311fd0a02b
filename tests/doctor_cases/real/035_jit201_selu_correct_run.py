# source: https://docs.jax.dev/en/latest/201/jit.html
# explain: selu_jit
# dynamic: none
# Runnable copy of 035_jit201_selu_correct.py for levelbench.explain: smallest sizes that keep the pattern.

import jax
import jax.numpy as jnp


def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)


selu_jit = jax.jit(selu)


def selu_jit_args():
    return (jnp.arange(100000),)
