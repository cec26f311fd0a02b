# source: https://theneuralbase.com/jax/learn/beginner/jit-recompilation-shape-changes/
# explain: add_one
# dynamic: LB211
# first-sight: eec90bb 2026-12-03 explain: found LB211; missed none; false none
# Runnable copy of 212_jit_recompilation_shape_change_lesson_timed.py for levelbench.explain: the lesson's jitted
# function, and as its call sequence the lesson's three calls: shape (5,), (5,) again, then (3,), the shape its
# heading announces for the third timing (the stored page is cut off inside that call's argument, so its values
# here are made up; only the shape matters).

import jax
import jax.numpy as jnp


@jax.jit
def add_one(x):
    return x + 1


def add_one_args():
    return (jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]),)


def add_one_calls():
    return [
        (jnp.array([1.0, 2.0, 3.0, 4.0, 5.0]),),
        (jnp.array([10.0, 20.0, 30.0, 40.0, 50.0]),),
        (jnp.array([1.0, 2.0, 3.0]),),
    ]
