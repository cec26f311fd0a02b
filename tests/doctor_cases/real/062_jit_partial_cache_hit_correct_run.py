# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# explain: top_function
# dynamic: none
# Runnable copy of 062_jit_partial_cache_hit_correct.py for levelbench.explain: the posted functions
# with their imports, called repeatedly with identical arguments.

import functools

import jax
import jax.numpy as jnp


def add_multiply(a, b, scale):
  return (a + b) * scale

def top_function(x, y, scale_factor):
  # JAX correctly unwraps functools.partial and hits the tracing cache!
  return jax.jit(functools.partial(add_multiply, scale=scale_factor))(x, y)


def top_function_args():
  return (jnp.ones(64), jnp.ones(64), 2.0)


def top_function_calls():
  return [top_function_args() for _ in range(4)]
