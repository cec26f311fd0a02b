# source: https://github.com/jax-ml/jax/issues/470
# explain: uniform_float64
# dynamic: LB231
# Runnable copy of 005_random_uniform_float64.py for levelbench.explain: smallest sizes that keep the pattern.

from jax import random


def uniform_float64(key):
    return random.uniform(key, (1000,), dtype="float64")


def uniform_float64_args():
    return (random.PRNGKey(0),)
