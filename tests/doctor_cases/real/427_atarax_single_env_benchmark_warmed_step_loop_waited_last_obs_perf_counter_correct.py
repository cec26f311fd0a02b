# source: https://github.com/Achronus/atari-jax/blob/20da5d51658e0899359c1eaa509156b6f3ab9b6f/benchmarks/bench_single_env.py
# title: atari-jax's (atarax) `benchmarks/bench_single_env.py`: a single JIT-compiled Atari environment stepped in a Python loop, ten warm-up steps waited with `jax.block_until_ready`, then 1,000 steps between two `perf_counter` reads with a `jax.block_until_ready` on the last observation before the clock stops, reported as frames per second
# established-by: maintainer Achronus (the atarax author's benchmark script; no issue discusses its timing)
# cause: Correct code. The timing sits in a helper, `run`. The environment is made with `jit_compile=True`, and `n_warmup` steps with the same state and action are run and waited for before the clock starts ('absorbs JIT compilation'; no LB103); the timed loop chains each step's `state` into the next and waits on the last observation with `jax.block_until_ready(obs)` before the second `perf_counter` read, which waits for the whole chain (no LB102, no LB105); the figure is a loop of `n_steps` steps, a throughput total, not one call (no LB104). The loop calls the library's compiled step, not eager JAX operations, and the benchmark's docstring says so ('a single JIT-compiled `AtariEnv`'; no LB114); the action is sampled on the device once before timing (no LB115). The persistent-cache line reports whether the compile cache was warm and does not touch the timing. A correct doctor stays quiet. Code: the file as stored at commit 20da5d5, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 858cce0 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# Copyright 2026 Achronus
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#    http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================

"""
Single-environment throughput benchmark.

Measures step FPS for a single JIT-compiled `AtariEnv` by running a tight
Python step loop and blocking until all XLA computations are complete.

Usage
-----
    uv run benchmarks/bench_single_env.py
    uv run benchmarks/bench_single_env.py --game pong --steps 2000
"""

import argparse
import time

import jax

from atarax.env import make
from atarax.env._compile import DEFAULT_CACHE_DIR


def run(game: str, n_steps: int, n_warmup: int) -> None:
    """
    Run the single-env benchmark and print results.

    Parameters
    ----------
    game : str
        ALE game name (e.g. `"breakout"`).
    n_steps : int
        Number of timed steps to execute.
    n_warmup : int
        Number of warmup steps to run before timing starts.
    """
    _backend = jax.default_backend()
    _cache = DEFAULT_CACHE_DIR / _backend
    print(f"device : {_backend}")
    print(f"cache  : {'warm' if _cache.is_dir() and any(_cache.iterdir()) else 'cold'}")

    env = make(f"atari/{game}-v0", preset=True, jit_compile=True)
    key = jax.random.PRNGKey(0)

    obs, state = env.reset(key)
    action = env.sample(key)

    # --- warmup (absorbs JIT compilation) ----------------------------------
    for _ in range(n_warmup):
        obs, state, _, _, _ = env.step(state, action)
    jax.block_until_ready(obs)

    # --- timed run ---------------------------------------------------------
    t0 = time.perf_counter()
    for _ in range(n_steps):
        obs, state, _, _, _ = env.step(state, action)
    jax.block_until_ready(obs)
    elapsed = time.perf_counter() - t0

    fps = n_steps / elapsed

    print(f"game        : {game}")
    print(f"obs shape   : {obs.shape}")
    print(f"n_steps     : {n_steps:,}")
    print(f"warmup      : {n_warmup}")
    print("\u2500" * 34)
    print(f"elapsed     : {elapsed:.3f} s")
    print(f"FPS         : {fps:,.0f} fps")
    print("target      : > 50,000 fps (GPU)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description="Single-env throughput benchmark.")
    parser.add_argument("--game", default="breakout", help="ALE game name")
    parser.add_argument("--steps", type=int, default=1000, help="Timed steps")
    parser.add_argument("--warmup", type=int, default=10, help="Warmup steps")
    args = parser.parse_args()

    run(args.game, args.steps, args.warmup)
