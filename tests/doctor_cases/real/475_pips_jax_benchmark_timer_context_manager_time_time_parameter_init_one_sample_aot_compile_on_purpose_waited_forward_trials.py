# source: https://github.com/brentyi/pips-jax/blob/e09e3ed320639498a8af6a8b7cc30af0c37ffe04/benchmark.py
# title: pips-jax's `benchmark.py`: the JAX port of the PIPs point tracker, its parameter initialisation and AOT compile each timed once in a `Timer` context manager on `time.time()`, then the compiled forward pass timed in 20 waited trials, reported as mean and standard error
# established-by: maintainer brentyi (the repository's author; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. The timing sits in a context-manager class, `Timer`, whose `__enter__` and `__exit__` read `time.time()` (LB105, at the start read in `__enter__`; the wall clock as the interval clock). The 'Initializing parameters' block times one call of `model.init_params` and one wait, printed as a figure of its own: one sample (LB104, at `params = model.init_params(seed=0)`, the first statement inside the timed block; 466's reading of a state initialisation timed once). The 'Compiling forward pass' block times `lower(...).compile()` on purpose, as its label says (no LB104, no LB103: a compile timed on purpose). The forward trials call the AOT-compiled executable, so none of them compiles (no LB103), each inside `jax.block_until_ready` (no LB102), and report the mean and standard error of 20 samples (no LB104); the inputs are made on the device before the timing (no LB115). Code: the file at commit e09e3ed, unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (parameter initialisation timed once and printed as a figure; the catalogue's reading, as in 466), LB105 (`time.time()` read by the `Timer` class as the interval clock; the catalogue's reading, placed at the start read as in other cases)
# lines: LB104:70, LB105:42
# first-sight: d481e6f 2026-12-06 py: found LB104:70; missed LB105:42; false none | notebook: found LB104:70; missed LB105:42; false none

"""Benchmark our PIPs model's forward pass.

For comparison, a PyTorch version is implemented here:
    https://github.com/brentyi/pips/blob/main/benchmark.py
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import jax
import numpy as onp
import tyro
from jax import numpy as jnp

from pips_jax.model import Pips


class Timer:
    """Timing helper.

    Usage:
        with Timer() as t:
            ... # Do something.
        print(t.elapsed) # seconds
    """

    elapsed: float

    def __enter__(self) -> Timer:
        self._start = time.time()
        return self

    def __exit__(self, *_unused_args):
        self.elapsed = time.time() - self._start


@dataclass(frozen=True)
class BenchmarkConfig:
    b: int = 1
    n: int = 256
    h: int = 360
    w: int = 640
    iters: int = 6
    num_forward_trials: int = 20


def benchmark(
    config: BenchmarkConfig,
    model: Pips = Pips(stride=4),
) -> None:
    print(config)
    print(model)
    print(">>>>")

    # Initialize parameters.
    print("Initializing parameters...")
    with Timer() as t:
        params = model.init_params(seed=0)
        jax.block_until_ready(params)
    print(f"\t{t.elapsed} seconds")

    # Set up inputs.
    rgbs = jnp.zeros((config.b, model.S, config.h, config.w, 3), dtype=jnp.uint8)
    xys = jnp.zeros((config.b, config.n, 2), dtype=jnp.float32)

    # Compile forward pass.
    model_apply = jax.jit(
        lambda rgbs, xys: model.apply(
            params, xys=xys, rgbs=rgbs, iters=config.iters, train=False
        )
    )
    print("Compiling forward pass...")
    with Timer() as t:
        model_apply_compiled = model_apply.lower(rgbs, xys).compile()
    print(f"\t{t.elapsed} seconds")

    # Run network!
    print("Forward pass...")
    runtimes = []
    for _ in range(config.num_forward_trials):
        with Timer() as t:
            jax.block_until_ready(model_apply_compiled(rgbs, xys))
        runtimes.append(t.elapsed)

    mean = onp.mean(runtimes)
    std_err = onp.std(runtimes, ddof=1) / onp.sqrt(len(runtimes))
    print(f"\t{mean:.05f} ± {std_err:.05f} seconds")


if __name__ == "__main__":
    tyro.cli(benchmark, description=__doc__)
