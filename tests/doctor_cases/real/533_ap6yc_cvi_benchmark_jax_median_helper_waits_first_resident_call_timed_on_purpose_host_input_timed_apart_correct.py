# source: https://github.com/AP6YC/cvi/blob/f7ff3fbee2332cdb2f9f6ca0c73f52a92c76c5a7/benchmarks/benchmark_jax.py
# title: AP6YC's cvi `benchmarks/benchmark_jax.py` (cluster validity indices with a JAX batch backend): a `milliseconds` helper that returns the median of `perf_counter` samples, each waiting with `block_until_ready` when the result has one, used for a jitted index's first call on device-resident data, its warm resident and host-input calls, the object API after an untimed compile call, and the NumPy implementation
# established-by: maintainer AP6YC (the repository's own benchmark script; no issue discusses its timing)
# cause: Correct for what the catalogue checks. Every timed call goes through `milliseconds`, which waits on a result that has `block_until_ready` (the JAX results; the NumPy result needs no wait) before reading `perf_counter` (no LB102, no LB105), and reports the median of `--repeats` samples (no LB104). The one single sample, `milliseconds(resident, 1)`, is the jitted index's first call, reported as `first_resident_call_ms` under a docstring that says the script separates first-call timings: a compile timed on purpose (no LB103, no LB104; the reading of 200, 224 and 513). The resident call is run again untimed (the `assert_allclose` check) before its samples, the object API is called once untimed ('Compile the compatibility adapter before timing it'), and the NumPy index is computed once untimed for `expected` (no LB103). The data are put on the device and waited for before the resident timings; the host-input figure, NumPy arrays handed to the jitted function, times the copy on purpose under its own name, as the docstring says ('device placement is outside resident timings'; no LB115, the reading of 036 and 243). Float64 is checked with `jax.config.x64_enabled` before anything runs (no LB108). `jax.jit(partial(...))` is built once per index, outside the timings (no LB111). A correct doctor stays quiet. Code: the file as stored at commit f7ff3fb, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: cd05d1a 2026-12-07 py: found none; missed none; false LB115:71 | notebook: found none; missed none; false LB115:71

"""Separate first-call, device-resident, and host-input JAX batch timings.

Run with JAX_ENABLE_X64=1 python -m benchmarks.benchmark_jax. Synchronization
is included in every timed call; device placement is outside resident timings.
"""

import argparse
from functools import partial
from statistics import median
from time import perf_counter

import jax
import numpy as np

import src.cvi as cvi
from src.cvi.jax import batch_cvi


def milliseconds(run, repeats):
    times = []
    for _ in range(repeats):
        start = perf_counter()
        value = run()
        if hasattr(value, "block_until_ready"):
            value.block_until_ready()
        times.append((perf_counter() - start) * 1000)
    return median(times)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--samples", type=int, default=2000)
    parser.add_argument("--clusters", type=int, default=24)
    parser.add_argument("--features", type=int, default=8)
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args()
    if not jax.config.x64_enabled:
        parser.error("Set JAX_ENABLE_X64=1 before running this benchmark")
    if not (2 <= args.clusters <= args.samples
            and args.features > 0 and args.repeats > 0):
        parser.error("Require 2 <= K <= N, d > 0, and repeats > 0")
    rng = np.random.default_rng(318)
    labels = np.arange(args.samples, dtype=np.int64) % args.clusters
    centers = rng.normal(size=(args.clusters, args.features)) * 3
    data = centers[labels] + rng.normal(size=(args.samples, args.features))
    device_data, device_labels = jax.device_put((data, labels))
    jax.block_until_ready((device_data, device_labels))
    print(f"JAX {jax.__version__}, {jax.devices()}; N={args.samples}, "
          f"K={args.clusters}, d={args.features}; median of {args.repeats}, ms")
    print("index,first_resident_call_ms,resident_ms,host_input_ms,object_ms,numpy_ms")
    for name in ("CH", "WB", "XB"):
        compiled = jax.jit(partial(batch_cvi, n_clusters=args.clusters, index=name))

        def resident():
            return compiled(device_data, device_labels)

        first = milliseconds(resident, 1)
        expected = getattr(cvi, name)().get_cvi(data, labels)
        np.testing.assert_allclose(resident(), expected, rtol=1e-10, atol=1e-12)
        resident_ms = milliseconds(resident, args.repeats)
        host_ms = milliseconds(lambda: compiled(data, labels), args.repeats)

        def object_call():
            return getattr(cvi, name)(backend="jax").get_cvi(data, labels)

        object_call()  # Compile the compatibility adapter before timing it.
        object_ms = milliseconds(object_call, args.repeats)
        numpy_ms = milliseconds(lambda: getattr(cvi, name)().get_cvi(data, labels),
                                args.repeats)
        print(f"{name},{first:.3f},{resident_ms:.6f},{host_ms:.6f},"
              f"{object_ms:.6f},{numpy_ms:.6f}")


if __name__ == "__main__":
    main()
