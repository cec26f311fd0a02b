# source: https://www.creativeworksofknowledge.com/cwk-quests/jax-quest/jit/1/
# title: JAX Quest, jit lesson 1 (Korean): trace, compile, cache, timed with time.time() on the first and second call, then a new shape and a new dtype
# established-by: answer by the lesson's author (the cache key is shape, dtype, static arguments and device; a new shape traces and compiles again)
# cause: The lesson's point: the jitted `f` traces and compiles on its first call (timed on purpose and printed as "first call"), reuses the executable on the second call at the same shape, and compiles again for `jnp.arange(2_000_000.0)`, a new shape; its `trace_count_demo` counts traces over four calls (shape 10 twice, shape 20, then a float64 request). Both timings wait for their result with `block_until_ready()`. The lesson does not discuss the measurement: the warm figure is a single `time.time()` sample, and its dtype example asks for float64 without x64 enabled, which JAX truncates to float32 with a warning, so that call is no new dtype and does not compile again (the lesson's comment says it does). Code: the lesson's two code blocks as stored, one cell each, the Korean comments kept.
# static: LB104, LB105, LB108
# dynamic: LB211
# inferred: LB104 (the warm figure is one sample of one call; the first figure holds the compile on purpose, so it is not labelled, as in case 202), LB105 (`time.time()` as the interval timer, both timings), LB108 (`jnp.arange(20., dtype=jnp.float64)` without x64: JAX's documented truncation to float32); the runnable copy's LB211 is the lesson's own recompile on a new shape
# lines: LB104:28, LB105:22/27, LB108:47
# first-sight: eec90bb 2026-12-03 py: found LB105:22 LB105:27 LB104:28; missed LB108:47; false LB104:23 LB111:38 | notebook: found LB105:22 LB105:27 LB104:28; missed LB108:47; false LB104:23 LB111:38

import jax
import jax.numpy as jnp
import time

@jax.jit
def f(x):
    return jnp.sum(x ** 2 + jnp.sin(x))

x = jnp.arange(1_000_000.0)

# 첫 호출 — trace + compile + run
t = time.time()
y = f(x).block_until_ready()
print(f"첫 호출: {time.time()-t:.3f}s")  # ~ 0.3s

# 두 번째 — cache hit, 빠름
t = time.time()
y = f(x).block_until_ready()
print(f"두 번째: {time.time()-t:.3f}s")  # ~ 0.001s

# 다른 shape — 새 trace + compile
y = f(jnp.arange(2_000_000.0)).block_until_ready()

# %%
def trace_count_demo():
    n_traces = 0

    @jax.jit
    def f(x):
        nonlocal n_traces
        n_traces += 1  # trace 시점에만 +1
        return x * 2

    f(jnp.arange(10.))  # trace + compile + run
    f(jnp.arange(10.))  # cache hit
    f(jnp.arange(20.))  # 다른 shape → recompile
    f(jnp.arange(20., dtype=jnp.float64))  # 다른 dtype → recompile
    print(f"trace 횟수: {n_traces}")
