# source: https://github.com/openxla/xla/issues/5875
# title: [oneDNN] XLA:CPU performance regression with oneDNN Dot op integration: a jitted, vmapped gradient of a small matrix-vector loop, compiled by one call and then timed as 10,000 blocked calls in one `timeit.timeit`, 4x to 38x slower on jaxlib 0.4.16 than on 0.4.14
# established-by: maintainer penpornk (filed the reproducer for XLA's CPU team, reporting a regression of XLA:CPU's oneDNN dot integration between jaxlib 0.4.14 and 0.4.16, and asked the oneDNN maintainers to take it)
# cause: Correct benchmark code; the slowdown it shows is XLA's (the oneDNN dot rewrite made these tiny dots slower), not the measurement's. `f` is compiled by a first call before the timing ('# compile'; the call returns after the compile, and its queued run finishes before the timed calls use the device); `timeit.timeit` then runs `f(x).block_until_ready()` 10,000 times, every call waited for, and reports the total: many samples in one figure, not one (case 278's reading of calls summed in one clock pair). `timeit` reads `time.perf_counter`. The Python loop under `jit` runs `SIZE` times, one iteration as posted, and is the reproducer's knob for scaling the program on purpose ('Increasing this value seems to increase the performance drop'), not an unrolled loop over data. `x` is a device array made before the timing. Code: the reproducer (`repro.py`) as posted in the issue, without its install commands and reported figures.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0228b9c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp
import jax.random as jr
import timeit

# Increasing this value seems to increase the performance drop.
SIZE = 1

@jax.jit
@jax.vmap
@jax.grad
def f(x):
    out = 0
    for i in range(SIZE):
        y = x @ jnp.array([i, i + 1], dtype=jnp.float32)
        out = out + y * x[0]
    return out

x = jr.normal(jr.PRNGKey(0), (2, 2))
f(x)  # compile
speed = timeit.timeit(lambda: f(x).block_until_ready(), number=10_000)
print(speed)
