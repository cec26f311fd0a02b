# source: https://github.com/jax-ml/jax/issues/968
# title: Generating random numbers with `jax.random.split` can be >200x slower than `np.random.normal`
# established-by: maintainer mattjj
# cause: The benchmark measures JAX's per-operation dispatch overhead: 20,000 tiny un-jitted operations in a Python loop; jitting the step helps somewhat, larger arrays amortise it.
# static: LB114, LB105, LB104, LB102
# dynamic: LB240
# inferred: LB105 (time.time()); LB104 (each variant is one call between two clock reads, unwarmed); LB102 (the last dispatched JAX work is not waited for)
# lines: LB114:16, LB105:27/31, LB104:28/32, LB102:28

import time
from jax import random, grad
import jax.numpy as np
import numpy.random as npr

def sample_repeatedly_with_split(key):
    for _ in range(10000):
        key, subkey = random.split(key)
        random.normal(subkey, shape=(3,))


def sample_repeatedly():
    for _ in range(10000):
        npr.normal(size=(3,))


key = random.PRNGKey(0)
now = time.time()
sample_repeatedly_with_split(key=key)
print('sample with split takes {:.4f} secs'.format(time.time() - now))

now = time.time()
sample_repeatedly()
print('`npr.normal` takes {:.4f} secs'.format(time.time() - now))
