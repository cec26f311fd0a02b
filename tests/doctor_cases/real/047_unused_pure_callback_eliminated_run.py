# source: https://github.com/jax-ml/jax/issues/13762
# explain: f
# dynamic: none
# Runnable copy of 047_unused_pure_callback_eliminated.py for levelbench.explain: pure_callback's
# `result_shape=` keyword is now its second positional argument (result_shape_dtypes).

import jax


def callback(x):
  print('called!')
  return x


@jax.jit
def f(x):
  _ = jax.pure_callback(callback, x, x)
  return x


def f_args():
    return (3.,)
