# source: https://github.com/oliverdutton/tallax/blob/32f2bf36617b480096c42e4dada1492bdad3d748/benchmarks/cumsum_benchmark.py
# title: tallax cumsum benchmark: a Pallas TPU cumsum against `jnp.cumsum`, each jitted and timed from a `jax.profiler` trace after a blocked warm-up call
# established-by: maintainer oliverdutton (the project's benchmark script and its `benchmark` helper)
# cause: Correct benchmark code. The helper `benchmark` wraps the call in `jax.block_until_ready`, runs it once to compile, then runs it again inside `jax.profiler.trace` and prints the device durations of the `jit_` events read from the trace file, so no host clock times asynchronous work and no compile is in the figure; the jitted functions are named `jit_...` (and carry `jax.named_scope`s) so their events can be found, and each static `m` compiles in its own warm-up run. Code: `tallax/test_utils.py` (commit 1784ee1) reduced to its imports and `benchmark`, the sort and top-k checks dropped, and `benchmarks/cumsum_benchmark.py` (commit 32f2bf3) as stored, one cell each.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 12e883c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import functools
import gzip
import json
import os
from glob import glob
import jax
import jax.numpy as jnp
import pandas as pd
import pytest

from tallax import tax
from tallax.utils import is_cpu_platform


def benchmark(_run):
  """Benchmark function and print timing from profiler trace."""
  def run():
    return jax.block_until_ready(_run())

  # Warmup
  run()

  tmpdir = "."
  with jax.profiler.trace(tmpdir):
    run()

  # Find trace file
  files = glob(f"{tmpdir}/plugins/profile/*/**.json.gz", recursive=True)
  if not files:
    print("No trace file generated.")
    return

  path = sorted(files, key=os.path.getmtime)[-1]
  try:
    with gzip.open(path, 'rb') as f:
      trace = json.load(f)
  except Exception as e:
    print(f"Failed to load trace: {e}")
    return

  if "traceEvents" not in trace:
    print("No traceEvents in trace.")
    return

  df = pd.DataFrame(trace["traceEvents"])
  if df.empty or 'name' not in df.columns:
    print("Trace dataframe empty or no name column.")
    return

  df = df[~df.name.isna()]
  df['name'] = df.name.apply(lambda s: s.split('(')[0])

  # Look for JIT compiled functions
  mask = df.name.str.contains("jit_")
  res = df[mask][['name', 'dur']]

  if not res.empty:
    print(res.to_string(index=False))
  else:
    print("No jit functions found in trace.")
# %%

import functools
import jax
import jax.numpy as jnp

# Import benchmark utils
from tallax.test_utils import benchmark

from tallax import tax
from tallax.utils import is_cpu_platform

def run_benchmarks():
  shape = (8, 128)
  interpret = is_cpu_platform()

  print(f"Running on {'CPU (interpret)' if interpret else 'TPU'}")

  key = jax.random.key(0)
  x = jax.random.uniform(key, shape, dtype=jnp.float32)

  # Define jitted functions with names that will show up in trace
  @functools.partial(jax.jit, static_argnames=('m',))
  def jit_cumsum_pallas(x, m):
      with jax.named_scope("jit_cumsum_pallas"):
          return tax.cumsum(x, m=m, interpret=interpret)

  @jax.jit
  def jit_cumsum_jax(x):
      with jax.named_scope("jit_cumsum_jax"):
          return jnp.cumsum(x, axis=1)

  # Different m values
  ms = [0, 64, 128]

  for m in ms:
      print(f"\nBenchmark cumsum {shape}, m={m}")

      print("  Pallas:")
      def _run_pallas():
          return jit_cumsum_pallas(x, m)
      benchmark(_run_pallas)

      print("  JAX:")
      def _run_jax():
          return jit_cumsum_jax(x)
      benchmark(_run_jax)

if __name__ == "__main__":
  run_benchmarks()
