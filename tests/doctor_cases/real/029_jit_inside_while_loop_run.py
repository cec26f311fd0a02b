# source: https://docs.jax.dev/en/latest/201/jit.html
# explain: g_inner_jitted_partial, g_inner_jitted_lambda, g_inner_jitted_normal
# dynamic: LB210, LB252
# Runnable copy of 029_jit_inside_while_loop.py for levelbench.explain: smallest sizes that keep the pattern.

from functools import partial

import jax


def unjitted_loop_body(prev_i):
  return prev_i + 1


def g_inner_jitted_partial(x, n):
  i = 0
  while i < n:
    i = jax.jit(partial(unjitted_loop_body))(i)
  return x + i


def g_inner_jitted_lambda(x, n):
  i = 0
  while i < n:
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)
  return x + i


def g_inner_jitted_normal(x, n):
  i = 0
  while i < n:
    i = jax.jit(unjitted_loop_body)(i)
  return x + i


def g_inner_jitted_partial_args():
    return (10, 20)


def g_inner_jitted_lambda_args():
    return (10, 20)


def g_inner_jitted_normal_args():
    return (10, 20)
