# source: https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/jit/1/
# explain: f
# dynamic: LB211
# first-sight: eec90bb 2026-12-03 explain: found LB211; missed none; false none
# Runnable copy of 216_jax_quest_jit_lesson_time_time_recompile_dtype.py for levelbench.explain: the lesson's
# jitted `f` and, as its call sequence, the lesson's three calls (its array, the same array again, then the longer
# one), at 10,000 and 20,000 elements instead of 1,000,000 and 2,000,000.

import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return jnp.sum(x ** 2 + jnp.sin(x))


def f_args():
    return (jnp.arange(10_000.0),)


def f_calls():
    x = jnp.arange(10_000.0)
    return [(x,), (x,), (jnp.arange(20_000.0),)]
