# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (Gotcha: JIT compiling a lambda instead of functools.partial)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: jax.jit applied to a lambda created inside top_function sees a new function object (new id) on every call, misses the tracing cache and retraces and recompiles each time; functools.partial of a module-level function hits the cache.
# static: LB111
# dynamic: LB210
# inferred: none
# lines: LB111:17
# first-sight: 43b52af 2026-12-02 py: found none; missed LB111:17; false none | notebook: found none; missed LB111:17; false none

# ❌ BAD: JIT compiling a freshly created lambda on every call
def add_multiply(a, b, scale):
  return (a + b) * scale

def top_function(x, y, scale_factor):
  # Creates a brand new lambda object with a new memory id on every pass!
  return jax.jit(lambda a, b: add_multiply(a, b, scale=scale_factor))(x, y)
