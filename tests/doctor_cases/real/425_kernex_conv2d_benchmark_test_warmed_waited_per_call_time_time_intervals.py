# source: https://github.com/ASEM000/kernex/blob/028693795cf6759697f4f15ea52a7e6ceb68d587/tests_and_benchmarks/test_benchmark_conv2d.py
# title: kernex's `tests_and_benchmarks/test_benchmark_conv2d.py`: a pytest test that, for 35 channel and image sizes, jits a kernex `kmap` convolution and `lax.conv_general_dilated`, checks they agree, warms both, then times 1,000 waited calls of each between `time.time()` reads and prints the mean and standard deviation
# established-by: maintainer ASEM000 (the kernex author's benchmark test; no issue discusses its timing)
# cause: The timing sits in a test function, `test_and_time_conv2d`. For each size both functions are called by the `assert_allclose` check and again by the `# warm up` calls before their loops, so no compile falls in a timed interval (no LB103); each interval is one call followed by `.block_until_ready()` before the second clock read (no LB102); 1,000 intervals per figure (no LB104); the inputs are made on the device with `jax.random.normal` (no LB115). The two functions are jitted afresh on each pass of the loop over sizes, but each size needs its own compile, which the warm-up pays, and both are reused by the 1,000 timed calls of the same pass (case 261's reading: no LB111). What a correct doctor reports: both interval clocks are `time.time()` (LB105, at the two start reads, the reading of 420 and 410). Code: the file as stored at commit 0286937, unchanged.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB105:69/83
# first-sight: 858cce0 2026-12-06 py: found LB105:69 LB105:83; missed none; false none | notebook: found LB105:69 LB105:83; missed none; false none

import itertools
import time
from functools import reduce
from statistics import mean, stdev

import jax
import jax.numpy as jnp
import numpy as np

import kernex as kex

mat = lambda *args: jnp.arange(1, reduce(lambda x, y: x * y, args) + 1).reshape(*args)


def test_and_time_conv2d():

    print()
    print("backend name = ", jax.devices())

    iters = 1000

    dims = list(
        sorted(itertools.product([4, 8, 16, 32, 64], [16, 32, 64, 128, 256, 512, 1024]))
    )

    for C, H in dims:

        print()

        @jax.jit
        def jax_conv2d(x, w):
            return jax.lax.conv_general_dilated(
                lhs=x,
                rhs=w,
                window_strides=(1, 1),
                padding="SAME",
                dimension_numbers=("NCHW", "OIHW", "NCHW"),
            )[0]

        @jax.jit
        @kex.kmap(
            kernel_size=(C, 3, 3), padding=("valid", "same", "same"), relative=False
        )
        def kex_conv2d(x, w):
            return jnp.sum(x * w)

        times = []
        x = jax.random.normal(jax.random.PRNGKey(0), (C, H, H))
        xx = x[None]
        w = jax.random.normal(jax.random.PRNGKey(0), (C, 3, 3))
        ww = w[None]
        np.testing.assert_allclose(kex_conv2d(x, w), jax_conv2d(xx, ww), atol=1e-3)

        # warm up
        kex_conv2d(x, w)
        jax_conv2d(xx, ww)

        for _ in range(iters):
            t1 = time.time()
            kex_conv2d(x, w).block_until_ready()
            t2 = time.time()
            times += [(t2 - t1)]

        print(f"[benchmarking]:\tconv2d @ dim={(C,H,H)}")
        print("=" * 50)

        print(
            f"[kex] average : {mean(times)*1e6:.0f} us\t stddev : {stdev(times)*1e6:.3f}us"
        )

        times = []
        for _ in range(iters):
            t1 = time.time()
            jax_conv2d(xx, ww).block_until_ready()
            t2 = time.time()
            times += [t2 - t1]

        print(
            f"[jax] average : {mean(times)*1e6:.0f} us\t stddev : {stdev(times)*1e6:.3f}us"
        )

        print("=" * 50)
