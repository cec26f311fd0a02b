# source: https://github.com/jax-ml/jax/issues/4436
# explain: foo
# dynamic: LB202, LB221
# Runnable copy of 002_index_loop_under_jit.py for levelbench.explain: smallest sizes that keep the pattern.

import jax
import jax.numpy as jnp
from jax import jit

# The issue loops 128 x 128 times; 16 x 16 keeps the same unrolled pattern at a
# size that compiles in well under a second.
@jit
def foo(a):
    for i in range(16):
        for j in range(16):
            s = a[0]
    return 0


def foo_args():
    return (jnp.zeros(128),)
