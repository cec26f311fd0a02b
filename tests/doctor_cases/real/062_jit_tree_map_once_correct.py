# source: https://docs.jax.dev/en/latest/debugging/slow_tracing_compilation.html
# title: Debugging slow JAX tracing and XLA compilation (the fix: jit the whole PyTree transformation)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct code: the whole jax.tree.map of quantize runs under one jax.jit, compiled once into a single fused program (the page's fix for eager op-by-op mapping); the jitted lambda is built once, at module level, for one call.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 43b52af 2026-12-02 py: found none; missed none; false none | notebook: found none; missed none; false none

# ✔️ GOOD: Compiles a single fused XLA graph for the entire PyTree
params = jax.jit(lambda p: jax.tree.map(quantize, p))(params)
