# source: https://docs.jax.dev/en/latest/notebooks/thinking_in_jax.html
# explain: norm_compiled
# dynamic: none
# Runnable copy of 040_thinking_in_jax_norm_correct.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax.numpy as jnp
from jax import jit


def norm(X):
  X = X - X.mean(0)
  return X / X.std(0)


norm_compiled = jit(norm)


def norm_compiled_args():
    np.random.seed(1701)
    return (jnp.array(np.random.rand(10000, 10)),)
