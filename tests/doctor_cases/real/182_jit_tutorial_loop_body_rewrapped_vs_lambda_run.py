# source: https://github.com/jax-ml/jax/issues/9288
# explain: g_inner_jitted_poorly
# dynamic: LB210, LB252
# first-sight: d3e47a7 2026-12-03 explain: found LB210 LB252; missed none; false none
# Runnable copy of 182_jit_tutorial_loop_body_rewrapped_vs_lambda.py for levelbench.explain: the third
# snippet (a fresh lambda jitted on every iteration), with the import its earlier cell held and the print
# removed; called with the posted arguments (10, 3).

import jax


def unjitted_loop_body(prev_i):
    return prev_i + 1


def g_inner_jitted_poorly(x, n):
    i = 0
    while i < n:
        i = jax.jit(lambda x: unjitted_loop_body(x))(i)
    return x + i


def g_inner_jitted_poorly_args():
    return (10, 3)
