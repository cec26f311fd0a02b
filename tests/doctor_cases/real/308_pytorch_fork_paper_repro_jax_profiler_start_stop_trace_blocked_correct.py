# source: https://github.com/erichan1/pytorch/blob/ab0f3f41dc52e812be840ad88f2927c5a33ad9dd/paper_repro/jax_example.py
# title: erichan1/pytorch `paper_repro/jax_example.py`: a `jax.profiler.start_trace` / `stop_trace` pair around a random 5000x5000 matrix product that is waited for before the trace stops
# established-by: maintainer erichan1 (a JAX profiling example in the fork's `paper_repro` folder)
# cause: Correct profiling code. No clock is read: the figures come from the profiler trace written to `./tmp/tensorboard`, and `y.block_until_ready()` runs before `stop_trace()`, so the matrix product's device work is inside the trace instead of being cut off by it (the pattern of JAX's programmatic-capture page, case 073, here in its `start_trace`/`stop_trace` form rather than the `with jax.profiler.trace(...)` block). The trace also holds the eager operations' first-use compiles, which a profile shows as their own events rather than folding them into one figure. Code: the file as stored at commit ab0f3f4, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 803cd8e 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax

jax.profiler.start_trace("./tmp/tensorboard")

# Run the operations to be profiled
key = jax.random.PRNGKey(0)
x = jax.random.normal(key, (5000, 5000))
y = x @ x
y.block_until_ready()

jax.profiler.stop_trace()
