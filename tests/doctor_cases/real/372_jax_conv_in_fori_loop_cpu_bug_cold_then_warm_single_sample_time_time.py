# source: https://github.com/jax-ml/jax/issues/12868
# title: Convolution is significantly slower inside a loop body (CPU): a 1-D `lax.conv` run twice in a `lax.fori_loop`, the jitted function timed once cold and once warm between `time.time()` reads, each result waited for with `jax.block_until_ready`, about 16 s against 3 ms for the same convolution outside the loop
# established-by: maintainer jax-ml (the JAX team labelled the report `bug`: the slowdown is the compiled program's, a channel-first convolution inside a loop body on XLA:CPU, which the reporter, jonatanklosko (maintainer of Elixir's Nx/EXLA), shows disappears with the channel-last `conv_general_dilated` form)
# cause: The slowness the issue reports is XLA's, not the measurement's: the same convolution outside the loop takes milliseconds, and the channel-last dimension numbers avoid it, so the 16 s is the loop body's convolution as compiled for CPU (a layout the loop keeps from being chosen well), and the team labelled it a bug. The timing is careful where it matters for that finding: both timed calls are waited for (`jax.block_until_ready`), `inp` and `kernel` are made on the device with `jnp.full` before the clock starts, and the first interval, the first call of `jax.jit(test)`, holds the compile, with the same call timed again right after (a compile timed on purpose and timed again warm: the corpus's reading of cases 287 and 305, no LB103 or LB104 at the first interval; `jax.jit(test)` applied twice to the same function hits the same cache, and neither statement is repeated, so no LB111, as case 318). What a correct doctor still reports, by the catalogue and the corpus's readings: the warm figure is one call between two clock reads, a single sample with nothing to judge its spread by (LB104, at the first statement inside the second clock pair), and both intervals are read with `time.time()`, the wall clock (LB105, at each start read). Neither hides a 5000x gap, and the thread does not discuss them. Code: the first program as posted (its `# ---` separator kept); the loop-free and channel-last variants that follow in the issue, each a changed `test` only, are left out.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (the warm run is timed once; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:36, LB105:31/35
# first-sight: 35efc1f 2026-12-06 py: found LB105:31 LB105:35 LB104:36; missed none; false none | notebook: found LB105:31 LB105:35 LB104:36; missed none; false none

import jax
import jax.lax
import jax.random
import jax.numpy as jnp

def test(inp, kernel):
    def loop_body(i, args):
        inp, kernel = args
        inp = jax.lax.conv(inp, kernel, (1,), "VALID")
        return (inp, kernel)

    return jax.lax.fori_loop(0, 2, loop_body, (inp, kernel))[0]

inp = jnp.full((1, 1000, 1024), 0.5)
kernel = jnp.full((1000, 1000, 1), 0.5)

# ---

import time

s = time.time()
jax.block_until_ready(jax.jit(test)(inp, kernel))
print(time.time() - s)

s = time.time()
jax.block_until_ready(jax.jit(test)(inp, kernel))
print(time.time() - s)
