# source: https://github.com/jax-ml/jax/issues/2456
# explain: jax_randint_loop, jax_normal_loop
# dynamic: LB240
# Runnable copy of 014_random_init_loops.py for levelbench.explain: smallest sizes that keep the pattern.

import jax


# The module-level loops, as functions, with 100 iterations instead of 10**6.
def jax_randint_loop(key):
    for i in range(100):
        a = jax.random.randint(key, (100,), 0, 100)
    return a


def jax_normal_loop(key):
    for i in range(100):
        a = jax.random.normal(key, shape=(100,))
    return a


def jax_randint_loop_args():
    return (jax.random.PRNGKey(0),)


def jax_normal_loop_args():
    return (jax.random.PRNGKey(0),)
