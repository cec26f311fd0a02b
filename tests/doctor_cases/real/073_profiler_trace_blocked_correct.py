# source: https://docs.jax.dev/en/latest/201/profiling.html
# title: Benchmarking and profiling (Programmatic capture)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct code: the traced region ends with y.block_until_ready() before jax.profiler.stop_trace(), so the asynchronously dispatched matmul is captured in the trace (the page's reason for the call).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax

jax.profiler.start_trace("/tmp/profile-data")

# Run the operations to be profiled
key = jax.random.key(0)
x = jax.random.normal(key, (5000, 5000))
y = x @ x
y.block_until_ready()

jax.profiler.stop_trace()
