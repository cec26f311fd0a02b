# source: https://github.com/jax-ml/jax/blob/main/benchmarks/api_benchmark.py
# title: JAX benchmarks/api_benchmark.py (the blocked benchmarks)
# established-by: maintainer jax-ml (JAX's own microbenchmarks)
# cause: Correct benchmark code: each function is jitted once, warmed up with a blocked call before the google_benchmark loop, and every call inside `while state:` is blocked; inputs are put on the device before timing. Code: the first blocked benchmarks of the file, the dispatch-only ones (deliberately unblocked) and the rest trimmed.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Microbenchmarks for JAX `api` functions."""

import functools
import operator

import google_benchmark
import jax
from jax import lax
import jax.numpy as jnp
import numpy as np


def swap(a, b):
  return b, a


@google_benchmark.register
def eager_unary(state):
  a = jax.device_put(1)
  lax.neg(a).block_until_ready()
  while state:
    lax.neg(a).block_until_ready()


@google_benchmark.register
def jit_trivial(state):
  f = jax.jit(swap)
  a, b = f(1, 2)
  f(a, b)

  while state:
    c, d = f(a, b)
    c.block_until_ready()
    d.block_until_ready()


@google_benchmark.register
def jit_simple(state):
  a = jax.device_put(1)
  b = jax.device_put(2)
  f = jax.jit(operator.add)
  f(a, b)

  while state:
    f(a, b).block_until_ready()


@google_benchmark.register
def jit_small_matmul(state):
  x = np.random.uniform(size=(2, 2)).astype(np.float32)
  x = jax.device_put(x)

  f = jax.jit(lambda x: jnp.dot(x, x))
  f(x).block_until_ready()

  while state:
    f(x).block_until_ready()


@google_benchmark.register
def jit_big_matmul(state):
  x = np.random.uniform(size=(100, 100)).astype(np.float32)
  x = jax.device_put(x)

  f = jax.jit(lambda x: jnp.dot(x, x))
  f(x).block_until_ready()

  while state:
    f(x).block_until_ready()
