# source: https://github.com/jax-ml/jax/pull/37872
# title: threefry2x32: use unrolled loops in CPU lowering: jakevdp's IPython benchmark of generating (2048, 128) uniform samples on a MacBook CPU, `%timeit` of an ahead-of-time `jax.jit(...).lower(key).compile()` for the compile time, then one warm-up call and `%timeit f(key).block_until_ready()` for the run time, before and after the change
# established-by: maintainer jakevdp (the PR's author: 'reduces compile time from ~70ms to ~40ms, and reduces runtime from ~1.0ms to ~0.3ms')
# cause: Correct benchmark code. The compile is what the first `%timeit` measures, on purpose and said so: `jax.jit(lambda k: ...).lower(key).compile()` builds a fresh function each run so that each run really traces, lowers and compiles, and nothing is called (the corpus's reading of an ahead-of-time compile timed on purpose, as cases 408 and 423: no LB103, no LB111, which concerns calls of a re-wrapped jit, not a compile measured as such). The run time is then measured apart: `f` is built once, warmed with `_ = f(key).block_until_ready()`, and `%timeit f(key).block_until_ready()` waits for every run (no LB102, no LB103; `%timeit` repeats, no LB104). The maintainer's figures are the change's effect (compile ~70 -> ~40 ms, run ~1.0 -> ~0.3 ms), not an artefact. Code: the 'Run at head' session from the PR description's collapsed 'benchmark scripts', as posted with its IPython prompts (outputs dropped); the 'Run with changes in this PR' session is the same code.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: fb4008d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

In [1]: import jax

In [2]: key = jax.random.key(0)

In [3]: %timeit jax.jit(lambda k: jax.random.uniform(k, (2048, 128))).lower(key).compile()

In [4]: f = jax.jit(lambda k: jax.random.uniform(k, (2048, 128)))

In [5]: _ = f(key).block_until_ready()

In [6]: %timeit f(key).block_until_ready()
