# source: https://github.com/robertringler/fuzzy-parakeet/blob/55e805ddc1289faa60dc0ee5882db20c2f72db43/benchmarks/bench_jax.py
# title: fuzzy-parakeet's `benchmarks/bench_jax.py` ('JAX placeholder benchmark'): a jitted two-layer tanh forward over a grid of sequence lengths and batch sizes, each shape warmed with one waited call, then 400 waited `perf_counter` samples averaged into milliseconds and tokens per second
# established-by: maintainer robertringler (the repository's own benchmark script; no issue discusses its timing)
# cause: Correct for what the catalogue checks. For each new input shape `step(x).block_until_ready()` runs once before the timed loop, so the compile for that shape stays out of the samples (no LB103, and the sweep over shapes is a sweep, not a retrace inside a timing, no LB117); every sample ends in `.block_until_ready()` (no LB102); the figure is the mean of 400 samples (no LB104); the clock is `perf_counter` (no LB105); the input is built with `jnp.ones` before the timing (no LB115); `step` is jitted once at module level (no LB111). bfloat16 is chosen on purpose by `--precision`, not a float64 comparison (no LB108). A correct doctor stays quiet. Code: the file as stored at commit 55e805d, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: cd05d1a 2026-12-07 py: found none; missed none; false none | notebook: found none; missed none; false none

from __future__ import annotations

import argparse
import time

import jax
import jax.numpy as jnp


def simple_forward(x: jnp.ndarray) -> jnp.ndarray:
    w1 = jnp.ones((x.shape[-1], x.shape[-1]), dtype=x.dtype) * 0.01
    w2 = jnp.ones((x.shape[-1], x.shape[-1]), dtype=x.dtype) * 0.01
    return jnp.tanh(x @ w1) @ w2


@jax.jit
def step(x: jnp.ndarray) -> jnp.ndarray:
    return simple_forward(x)


def main() -> None:
    parser = argparse.ArgumentParser(description="JAX placeholder benchmark")
    parser.add_argument("--platform", default="gpu")
    parser.add_argument("--precision", default="bf16")
    parser.add_argument("--seq", nargs="+", type=int, default=[128, 512, 2048])
    parser.add_argument("--batch", nargs="+", type=int, default=[8, 32])
    parser.add_argument("--steps", type=int, default=400)
    parser.add_argument("--out", default="_bench_jax")
    args = parser.parse_args()

    jax.config.update("jax_platform_name", args.platform)

    for seq_len in args.seq:
        for batch_size in args.batch:
            dtype = jnp.bfloat16 if args.precision == "bf16" else jnp.float32
            x = jnp.ones((batch_size, seq_len, 256), dtype=dtype)
            step(x).block_until_ready()
            timings: list[float] = []
            for _ in range(args.steps):
                t0 = time.perf_counter()
                _ = step(x).block_until_ready()
                timings.append((time.perf_counter() - t0) * 1e3)
            ms = sum(timings) / len(timings)
            tokens = batch_size * seq_len
            print(f"jax,seq={seq_len},batch={batch_size},ms={ms:.3f},tok/s={tokens / (ms / 1000):.1f}")


if __name__ == "__main__":
    main()
