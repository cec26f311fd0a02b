# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (Gotcha: Eager Python loops)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: jax.tree.map over the weights runs jnp.max, jnp.abs and jnp.round eagerly, one dispatch (and one compilation per new shape) per operation and per tensor; jitting the whole tree map compiles one fused program.
# static: LB114
# dynamic: LB240
# inferred: none
# lines: LB114:17
# first-sight: 43b52af 2026-12-02 py: found none; missed LB114:17; false none | notebook: found none; missed LB114:17; false none

# ❌ BAD: Eager op-by-op PyTree mapping
def quantize(x):
  scale = jnp.max(jnp.abs(x))
  return jnp.round(x * scale)

# Eagerly dispatches jnp.max, jnp.abs, jnp.round for every weight tensor!
params = jax.tree.map(quantize, params)
