# source: https://github.com/jax-ml/jax/pull/17724
# title: Added `serial_dot_products` benchmark
# established-by: answer by patrick-kidger (author of the benchmark, fixing it in this PR, reviewed by maintainer yashk2810)
# cause: The batch_inplace_while benchmark's timed `while state:` loop called the jitted function without waiting for its result, so it timed dispatch; the PR added the missing block_until_ready calls (and one on the warm-up call). Code: the benchmark as it stood in benchmarks/api_benchmark.py, the rest of the file trimmed.
# static: LB102
# dynamic: n/a
# inferred: none
# lines: LB102:45
# first-sight: 43b52af 2026-12-02 py: found none; missed LB102:45; false none | notebook: found none; missed LB102:45; false none

from functools import partial

import google_benchmark
import jax
from jax import lax
import jax.numpy as jnp


def batch_inplace_while(inplace_op, state):

  @jax.jit
  @jax.vmap
  def f(init_step, init_xs):

    def cond(carry):
      step, xs = carry
      return step < xs.size

    def body(carry):
      step, xs = carry
      if inplace_op == 'scatter':
        xs = xs.at[step].set(1)
      elif inplace_op == 'dynamic_update_slice':
        xs = lax.dynamic_update_index_in_dim(xs, 1., step, 0)
      else:
        assert False
      return step + 1, xs

    return lax.while_loop(cond, body, (init_step, init_xs))

  size = 100_000
  args = jnp.array([0]), jnp.zeros((1, size))
  f(*args)  # compile
  while state:
    f(*args)


google_benchmark.register(
    partial(batch_inplace_while, 'scatter'), name='batch_inplace_while_scatter')
google_benchmark.register(
    partial(batch_inplace_while, 'dynamic_update_slice'),
    name='batch_inplace_while_dynamic_update_slice')

if __name__ == "__main__":
  google_benchmark.main()
