# source: https://docs.jax.dev/en/latest/automatic-vectorization.html
# explain: manually_batched_convolve
# dynamic: LB240
# first-sight: 43b52af 2026-12-02 explain: found none; missed LB240; false LB201
# Runnable copy of 060_manual_batching_convolve.py for levelbench.explain: the posted functions on a
# batch of 4 vectors of length 16.

import jax
import jax.numpy as jnp


def convolve(x, w):
  output = []
  for i in range(1, len(x)-1):
    output.append(jnp.dot(x[i-1:i+2], w))
  return jnp.array(output)


def manually_batched_convolve(xs, ws):
  output = []
  for i in range(xs.shape[0]):
    output.append(convolve(xs[i], ws[i]))
  return jnp.stack(output)


def manually_batched_convolve_args():
  xs = jnp.stack([jnp.arange(16.0)] * 4)
  ws = jnp.stack([jnp.array([2., 3., 4.])] * 4)
  return (xs, ws)
