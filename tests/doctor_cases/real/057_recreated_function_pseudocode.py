# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (Gotcha: Dynamically recreating function objects)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: A function defined inside top_function is a new object on every call, so jax.jit of it misses the tracing cache (keyed on the function's id) and retraces each call; the posted snippet is pseudocode (`def top_function(...)`).
# static: LB100
# dynamic: n/a
# inferred: LB100 (the `...` parameter list does not parse, so nothing else in the snippet can be read)
# lines: LB100:12
# first-sight: 43b52af 2026-12-02 py: found LB100:12; missed none; false none | notebook: found LB100:12; missed none; false none

# ❌ BAD: Recreating function object on every call
def top_function(...):
  # Creates a brand new function object with a new memory id on every call
  # to `top_function`.
  def custom_einsum(a, b):
    return jnp.einsum("...i,...i->...", a, b)

  return jax.jit(custom_einsum)(x, y)
