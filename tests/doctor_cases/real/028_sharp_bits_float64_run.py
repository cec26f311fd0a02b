# source: https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html
# explain: uniform_float64
# dynamic: LB231
# Runnable copy of 028_sharp_bits_float64.py for levelbench.explain: smallest sizes that keep the pattern.

import jax.numpy as jnp
from jax import random


def uniform_float64(key):
    return random.uniform(key, (1000,), dtype=jnp.float64)


def uniform_float64_args():
    return (random.PRNGKey(0),)
