# source: https://github.com/jax-ml/jax/issues/587
# explain: while_loop_f
# dynamic: LB210
# first-sight: 8417a81 2026-12-02 explain: found LB210; missed none; false none
# Runnable copy of 130_while_loop_fresh_cond_op_by_op.py for levelbench.explain: the posted
# while_loop statement as a function of its initial value; the posted calls are two identical ones.

import jax.numpy as np
from jax import jit, lax


def f(x):
    return np.mean(x - np.ones(10000))


jf = jit(f)


def while_loop_f(x0):
    return lax.while_loop(lambda x: x < 0, jf, x0)


def while_loop_f_args():
    return (np.array(0.),)


def while_loop_f_calls():
    return [while_loop_f_args(), while_loop_f_args()]
