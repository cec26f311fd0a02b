# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# explain: top_function
# dynamic: LB210
# first-sight: 43b52af 2026-12-02 explain: found LB210; missed none; false none
# Runnable copy of 054_jit_fresh_lambda_each_call.py for levelbench.explain: the posted functions
# with their imports; the calls repeat identical arguments, as a caller in a loop would.

import jax
import jax.numpy as jnp


def add_multiply(a, b, scale):
  return (a + b) * scale

def top_function(x, y, scale_factor):
  # Creates a brand new lambda object with a new memory id on every pass!
  return jax.jit(lambda a, b: add_multiply(a, b, scale=scale_factor))(x, y)


def top_function_args():
  return (jnp.ones(64), jnp.ones(64), 2.0)


def top_function_calls():
  return [top_function_args() for _ in range(4)]
