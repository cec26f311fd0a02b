# source: https://github.com/jax-ml/jax/issues/37465
# title: CPU performance regression: a jitted nearest-neighbour regularizer (`jnp.diff` along each axis, squared and summed) and its jitted gradient on a 256^3 float32 array, each warmed with a waited call and then timed with `%timeit -n10 -r3` of a blocked call, 1.7x slower on CPU than on jax 0.4.31
# established-by: maintainer jax-ml (the JAX team labelled the report `bug`; a later comment by dignissimus traced part of the slowdown to XLA:CPU offloading the reduction to YNNPACK without fusing the `jnp.diff` slice, halved by an XLA flag)
# cause: Correct benchmark code; the slowness it measures is XLA:CPU's (the reporter, clemisch, tracks it across versions: x1.8 from 0.5.0 to 0.5.3, x1.4 from 0.7.2 to 0.8.0), not the measurement's. Both jitted functions are called once and waited for before any timing, so `%timeit -n10 -r3`, which skips the calibration runs that would otherwise absorb a compile, times warm calls only; every timed call ends in `.block_until_ready()`; `x` is made on the device before the timing, in float32 on both sides of the version comparison. The Python loop inside `reg_square` runs once per axis of `x` (three times, fixed by the rank), and each pass differences along a different axis with a differently shaped result, which no `lax` loop could carry: unrolling it is the intended form, not a loop over data (no LB106). The `print` of the versions reads `jax.lib.__version__`, an attribute, not an import. Code: the reproducer as posted, without its timings per version.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0228b9c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
import jax.numpy as jnp

print(f"jax={jax.__version__}, jaxlib={jax.lib.__version__}")

@jax.jit
def reg_square(x):
    cost = 0.0
    for i in range(x.ndim):
        xd = jnp.diff(x, axis=i)
        cost += jnp.sum(jnp.square(xd))
    return cost

reg_square_grad = jax.jit(jax.grad(reg_square))

shape = (256, 256, 256)
x = jax.random.normal(jax.random.key(0), shape, dtype="float32")

jax.block_until_ready(reg_square(x))
jax.block_until_ready(reg_square_grad(x))

%timeit -n10 -r3 reg_square(x).block_until_ready()
%timeit -n10 -r3 reg_square_grad(x).block_until_ready()
