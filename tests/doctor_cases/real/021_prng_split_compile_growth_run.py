# source: https://github.com/jax-ml/jax/issues/1172
# explain: f_jit
# dynamic: LB202, LB270
# Runnable copy of 021_prng_split_compile_growth.py for levelbench.explain: smallest sizes that keep the pattern.

from jax import jit, random


def f(key, i):
    for _ in range(i):
        _, key = random.split(key)
    return key


# The largest i (16), jitted once instead of once per iteration.
f_jit = jit(f, static_argnums=(1,))


def f_jit_args():
    return (random.PRNGKey(0), 16)
