# source: https://docs.jax.dev/en/latest/automatic-vectorization.html
# title: Automatic vectorization (Manual vectorization)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Looping over the batch in Python calls the unjitted convolve once per example, each call itself a Python loop of small jnp.dot calls dispatched one by one; the page calls it correct but not very efficient and batches with jax.vmap (under jax.jit) instead.
# static: LB114
# dynamic: LB240
# inferred: none
# lines: LB114:19/30
# first-sight: 43b52af 2026-12-02 py: found none; missed LB114:19/30; false none | notebook: found none; missed LB114:19/30; false none

import jax
import jax.numpy as jnp

x = jnp.arange(5)
w = jnp.array([2., 3., 4.])

def convolve(x, w):
  output = []
  for i in range(1, len(x)-1):
    output.append(jnp.dot(x[i-1:i+2], w))
  return jnp.array(output)

convolve(x, w)
# %%
xs = jnp.stack([x, x])
ws = jnp.stack([w, w])
# %%
def manually_batched_convolve(xs, ws):
  output = []
  for i in range(xs.shape[0]):
    output.append(convolve(xs[i], ws[i]))
  return jnp.stack(output)

manually_batched_convolve(xs, ws)
