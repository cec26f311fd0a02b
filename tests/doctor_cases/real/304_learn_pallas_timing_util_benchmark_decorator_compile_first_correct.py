# source: https://github.com/simveit/learn_pallas/blob/0e1913609a1ff4f01900af81a7ef32f26353e0f0/pipelining/timing_util.py
# title: learn_pallas `pipelining/timing_util.py`: a `benchmark(f, ntrials=10)` wrapper that calls `f` once under `jax.block_until_ready` to compile, then times `ntrials` waited calls with `timeit.timeit` and returns the mean
# established-by: maintainer simveit (the timing helper of the repository's Pallas pipelining examples)
# cause: Correct benchmark code. The wrapper returned by `benchmark` calls `f` once and waits for it before any timing ('Compile function first'), so the compile is outside the timed calls (no LB103); every timed call is wrapped in `jax.block_until_ready`, so each waits for its result (no LB102); `ntrials` calls are timed together (10 by default), not one (no LB104); `timeit.timeit` uses `perf_counter`. What `f` is and where its arguments live is the caller's business, outside this file. Code: the file as stored at commit 0e19136, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 803cd8e 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import timeit
import jax 

def benchmark(f, ntrials: int = 10):
  def run(*args, **kwargs):
    # Compile function first
    jax.block_until_ready(f(*args, **kwargs))
    # Time function
    result = timeit.timeit(lambda: jax.block_until_ready(f(*args, **kwargs)),
                           number=ntrials)
    time = result / ntrials
    # print(f"Time: {time}")
    return time
  return run
