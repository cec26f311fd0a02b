# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (Gotcha: Python control flow, loop unrolling in JIT)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: The Python for loop inside the jitted function is unrolled at trace time into 5,000 add equations, which XLA must then optimise, so the first call is slow to trace and compile; lax.scan or fori_loop keeps one loop body.
# static: LB106
# dynamic: LB202
# inferred: none
# lines: LB106:17
# first-sight: 43b52af 2026-12-02 py: found LB106:17; missed none; false none | notebook: found LB106:17; missed none; false none

import jax
import jax.numpy as jnp

@jax.jit
def unrolled_loop(x):
  # ❌ BAD: Unrolls 5,000 identical add equations into the Jaxpr!
  for _ in range(5000):
    x = x + 1.0
  return x

# Run with JAX_DUMP_IR_TO=/tmp/jax_ir JAX_DUMP_IR_MODES=eqn_count_pprof
unrolled_loop(jnp.zeros(10))
