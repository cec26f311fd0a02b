# source: https://github.com/jax-ml/jax/issues/31284
# title: O(n) program has become O(n^2) in JAX 0.7.1: a jitted `lax.while_loop` writing one element per step, compiled with a waited call and then timed once per size between two `time.time()` reads, quadruples in cost per doubling of the size on 0.7.1 where it doubled on 0.7.0
# established-by: maintainer jax-ml (the JAX team labelled the report `bug` and `XLA` and closed it: the quadratic cost is the compiled program's, a regression in 0.7.1; the reporter, patrick-kidger, maintains Equinox and Diffrax)
# cause: The slowness the issue reports is JAX's: under 0.7.1 the buffer `xs` is apparently copied on every loop iteration (the reporter's reading, which the `XLA` label and the companion report jax-ml/jax#31282 agree with), so the run time grows with the square of the size. The measurement is careful about what matters for that finding: each size is compiled by a waited call before its clock starts ('# compile'), and the timed call is waited for with `jax.block_until_ready`, so neither compile nor dispatch distorts the growth. What a correct doctor still reports, as for the same per-size sweep in case 213 (jax-ml/jax#8192): every printed figure is one call between two clock reads, a single sample per size with nothing to judge its spread by (LB104, at the first statement inside the clock pair; each pass of the loop times a different size, cases 284 and 301), read with `time.time()`, the wall clock (LB105, at the start read). Neither weakness hides a 4x-per-doubling trend, and the thread does not discuss them. Code: the program as posted, without its printed output and system information.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (one sample per size; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:36, LB105:35
# first-sight: 0228b9c 2026-12-06 py: found LB105:35 LB104:36; missed none; false none | notebook: found LB105:35 LB104:36; missed none; false none

import jax
import jax.random as jr
import jax.lax as lax
import jax.numpy as jnp
import time

@jax.jit
def f(init_xs):

  def cond(carry):
    step, xs = carry
    return step < xs.size

  def body(carry):
    step, xs = carry
    i = jr.randint(jr.key(step), shape=(), minval=0, maxval=2)
    xs = xs.at[step].set(xs[i])
    return step + 1, xs

  return lax.while_loop(cond, body, (0, init_xs))

for size in (10_000, 20_000, 40_000, 80_000):
  xs = jnp.zeros((size,))
  jax.block_until_ready(f(xs))  # compile
  start = time.time()
  jax.block_until_ready(f(xs))
  print(size, time.time() - start)
