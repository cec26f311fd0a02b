# source: https://theneuralbase.com/jax/learn/beginner/what-jit-compiles-xla-computation/
# explain: slow_function, jit_function
# dynamic: LB240, LB202
# first-sight: c3b020c 2026-12-02 explain: found LB240 LB202; missed none; false none
# Runnable copy of 196_python_loop_jit_vs_eager_timing.py for levelbench.explain: the lesson's
# function as posted (its 1000-step Python loop kept), unjitted and jitted, on the lesson's scalar.
# Retired case 119's copy, its dynamic label corrected (LB201 -> LB202, see the case). The first-sight line is
# what the doctor that first saw 119 (c3b020c) reported there (LB240 and LB202, recorded as 'found LB240; missed
# LB201; false LB202'), scored against the corrected label; explain was not run again.

import jax
import jax.numpy as jnp


def slow_function(x):
    result = 0.0
    for i in range(1000):
        result = result + jnp.sin(x) * 0.001
    return result


jit_function = jax.jit(slow_function)


def slow_function_args():
    return (jnp.array(3.14),)


def jit_function_args():
    return (jnp.array(3.14),)
