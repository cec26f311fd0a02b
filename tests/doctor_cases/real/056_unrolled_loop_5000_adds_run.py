# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# explain: unrolled_loop
# dynamic: LB202
# first-sight: 43b52af 2026-12-02 explain: found LB202; missed none; false none
# Runnable copy of 056_unrolled_loop_5000_adds.py for levelbench.explain: 500 iterations instead of
# 5,000 (the program still grows with the loop).

import jax
import jax.numpy as jnp


@jax.jit
def unrolled_loop(x):
  for _ in range(500):
    x = x + 1.0
  return x


def unrolled_loop_args():
  return (jnp.zeros(10),)
