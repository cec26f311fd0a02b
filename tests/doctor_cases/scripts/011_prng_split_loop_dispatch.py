# case: real/011_prng_split_loop_dispatch.py
# form: script
# causes: LB114:26, LB104:26/30, LB102:26, LB103:26
# changed: 500 iterations instead of 10000 in both loops
# note: LB104 and LB102 belong to the JAX interval (one unwarmed sample, last dispatched work not waited for); the NumPy interval is a single sample too but its work is synchronous: LB104 is labelled on both intervals

import time
from jax import random, grad
import jax.numpy as np
import numpy.random as npr

def sample_repeatedly_with_split(key):
    for _ in range(500):
        key, subkey = random.split(key)
        random.normal(subkey, shape=(3,))


def sample_repeatedly():
    for _ in range(500):
        npr.normal(size=(3,))


key = random.PRNGKey(0)
now = time.time()
sample_repeatedly_with_split(key=key)
print('sample with split takes {:.4f} secs'.format(time.time() - now))

now = time.time()
sample_repeatedly()
print('`npr.normal` takes {:.4f} secs'.format(time.time() - now))
