# source: https://github.com/jax-ml/jax/issues/968
# explain: sample_repeatedly_with_split
# dynamic: LB240
# Runnable copy of 011_prng_split_loop_dispatch.py for levelbench.explain: smallest sizes that keep the pattern.

from jax import random


# 100 iterations instead of 10,000: the same op-by-op pattern, faster to diagnose.
def sample_repeatedly_with_split(key):
    for _ in range(100):
        key, subkey = random.split(key)
        random.normal(subkey, shape=(3,))


def sample_repeatedly_with_split_args():
    return (random.PRNGKey(0),)
