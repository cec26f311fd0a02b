# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# explain: quantize_params
# dynamic: LB240
# first-sight: 43b52af 2026-12-02 explain: found LB240; missed none; false none
# Runnable copy of 055_eager_tree_map_quantize.py for levelbench.explain: the posted module-level
# statement wrapped in a function, on a dict of 12 small weight tensors.

import jax
import jax.numpy as jnp


def quantize(x):
  scale = jnp.max(jnp.abs(x))
  return jnp.round(x * scale)


def quantize_params(params):
  # Eagerly dispatches jnp.max, jnp.abs, jnp.round for every weight tensor!
  params = jax.tree.map(quantize, params)
  return params


def quantize_params_args():
  keys = jax.random.split(jax.random.PRNGKey(0), 12)
  return ({f"w{i}": jax.random.normal(k, (32, 32)) for i, k in enumerate(keys)},)
