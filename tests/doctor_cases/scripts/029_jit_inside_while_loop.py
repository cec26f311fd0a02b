# case: real/029_jit_inside_while_loop.py
# form: ipython
# causes: LB111:45/48
# changed: n = 5 instead of 20 in the three timed calls, x = jnp.arange(100000) instead of 1000000
# note: the first two timed statements re-create a jitted partial / lambda on every iteration (LB111, each recompiles); the third jits the same function object and hits the cache: correct

import jax
import jax.numpy as jnp

def selu(x, alpha=1.67, lambda_=1.05):
  return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

x = jnp.arange(100000)
%timeit selu(x).block_until_ready()
# %%
from functools import partial

def unjitted_loop_body(prev_i):
  return prev_i + 1

def g_inner_jitted_partial(x, n):
  i = 0
  while i < n:
    # Don't do this! A fresh `partial` has a different hash each time,
    # so this recompiles on every iteration.
    i = jax.jit(partial(unjitted_loop_body))(i)
  return x + i

def g_inner_jitted_lambda(x, n):
  i = 0
  while i < n:
    # Don't do this either! Same problem: a fresh lambda every iteration.
    i = jax.jit(lambda x: unjitted_loop_body(x))(i)
  return x + i

def g_inner_jitted_normal(x, n):
  i = 0
  while i < n:
    # This is OK: `jax.jit` sees the same function object each time,
    # and finds the cached executable.
    i = jax.jit(unjitted_loop_body)(i)
  return x + i

print("jit called in a loop with partials:")
%timeit g_inner_jitted_partial(10, 5).block_until_ready()

print("jit called in a loop with lambdas:")
%timeit g_inner_jitted_lambda(10, 5).block_until_ready()

print("jit called in a loop with caching:")
%timeit g_inner_jitted_normal(10, 5).block_until_ready()
