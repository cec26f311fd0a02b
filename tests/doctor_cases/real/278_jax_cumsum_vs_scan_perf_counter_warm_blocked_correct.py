# source: https://github.com/jax-ml/jax/issues/4135
# title: Cumsum slower than NumPy on CPU: a jitted `jnp.cumsum` and a `lax.scan` cumulative sum of a (360, 160, 120, 3) float64 array, each warmed and timed over ten blocked calls with `time.perf_counter`
# established-by: maintainer hawkinsp (PR jax-ml/jax#4603: cumsum padded its input to the next power of two, 'the cause of a significant part of #4135'; his before/after figures come from this script)
# cause: Correct benchmark code; what it measured was a real JAX slowness that hawkinsp traced to `cumsum`'s implementation (it padded the scanned axis to a power of two) and fixed in #4603, re-running this benchmark for the figures. x64 is enabled before any array is made, so the float64 request holds; each jitted function is called and waited for before its clock starts (`res_cumsum = ...block_until_ready()`), the ten timed calls each end in `.block_until_ready()`, and the interval is read with `time.perf_counter`. The ten calls are summed in one clock pair: ten samples in one figure, not one. Code: the issue's example script as the stored copy of the thread shows it (it ends at the `assert_allclose`; `bench_np` is defined there and timed in the later versions quoted in #4603).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: aea0196 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
jax.config.update('jax_enable_x64', True)

import numpy as np
import jax.numpy as jnp


@jax.jit
def bench_cumsum(arr):
    return jnp.cumsum(arr, axis=0)


@jax.jit
def bench_scan(arr):
    def accumulate(carry, y):
        new_y = y + carry
        return new_y, new_y

    init = jnp.zeros(arr.shape[1:], dtype=arr.dtype)
    return jax.lax.scan(accumulate, init, arr)[1]


def bench_np(arr):
    return np.cumsum(arr, axis=0)


if __name__ == '__main__':
    import time
    shape = (360, 160, 120, 3)

    key = jax.random.PRNGKey(17)
    arr = jax.random.uniform(key, shape=shape, dtype='float64')

    res_cumsum = bench_cumsum(arr).block_until_ready()
    start = time.perf_counter()
    for _ in range(10):
        bench_cumsum(arr).block_until_ready()
    end = time.perf_counter()
    print(f'bench_cumsum: {end-start:.3f}s')

    res_scan = bench_scan(arr).block_until_ready()
    start = time.perf_counter()
    for _ in range(10):
        bench_scan(arr).block_until_ready()
    end = time.perf_counter()
    print(f'bench_scan: {end-start:.3f}s')
    np.testing.assert_allclose(res_cumsum, res_scan)
