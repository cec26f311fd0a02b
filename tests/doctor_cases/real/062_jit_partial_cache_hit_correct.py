# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (the fix: functools.partial instead of a lambda)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct code: jax.jit of functools.partial(add_multiply, scale=...) inside top_function is unwrapped by JAX and cached on the underlying function and the bound arguments, so repeated calls hit the tracing cache (the page's fix for a lambda rebuilt on every call).
# static: none
# dynamic: none
# inferred: none
# lines: none

# ✔️ GOOD: Using functools.partial
import functools

def add_multiply(a, b, scale):
  return (a + b) * scale

def top_function(x, y, scale_factor):
  # JAX correctly unwraps functools.partial and hits the tracing cache!
  return jax.jit(functools.partial(add_multiply, scale=scale_factor))(x, y)
