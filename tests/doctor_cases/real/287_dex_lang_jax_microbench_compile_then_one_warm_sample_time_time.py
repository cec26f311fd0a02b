# source: https://github.com/google-research/dex-lang/blob/62dd839e04c90dfc0c8ec2c8b169bf56c54a6ca7/benchmarks/python/microbench.py
# title: dex-lang `benchmarks/python/microbench.py`: JAX microbenchmarks run by a `@partial(benchit, name, 0)` decorator that jits each function, times its first blocked call and a second one with `time.time()`, and prints `compile_time` and `run_time` as JSON
# established-by: maintainer google-research (the Dex project's JAX baselines for its own microbenchmarks)
# cause: The decorator runs each benchmark when the module is imported. Its first clock pair times the first call, compile included, on purpose: `compile_time` is that figure less the run (the corpus's reading of a compile timed on purpose, cases 200 and 216: no LB103 or LB104 there). The `run_time` printed beside it is one warm call between two `time.time()` reads, a single sample with nothing to judge its spread by (LB104), and it is also subtracted from the first figure, so the compile estimate carries the same noise. Both intervals are read with `time.time()`, the wall clock (LB105). Both calls are waited for. And `from jax.config import config` no longer imports on current JAX (`jax.config` is an object, not a module; `enable_omnistaging` is gone too), so the file as written does not run (LB113, as in cases 167 and 175). No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 62dd839, unchanged.
# static: LB104, LB105, LB113
# dynamic: n/a
# inferred: LB104 (the run time is one warm sample; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB113 (`from jax.config import config` raises on current JAX, as in cases 167 and 175; not discussed)
# lines: LB104:36, LB105:33/35, LB113:24
# first-sight: aea0196 2026-12-06 py: found LB113:24 LB105:33 LB105:35; missed LB104:36; false none | notebook: found LB113:24 LB105:33 LB105:35; missed LB104:36; false none

# Copyright 2020 Google LLC
#
# Use of this source code is governed by a BSD-style
# license that can be found in the LICENSE file or at
# https://developers.google.com/open-source/licenses/bsd

import json
from functools import partial
import time

import jax.numpy as np
import jax.random as random
from jax import jit
from jax.config import config

config.enable_omnistaging()

# warm up
np.dot(1.0, 1.0)

def benchit(bench_name, x, f):
  f_jitted = jit(f)
  t0 = time.time()
  f_jitted(x).block_until_ready()
  t1 = time.time()
  f_jitted(x).block_until_ready()
  t2 = time.time()
  run_time = t2 - t1
  compile_time = t1 - t0 - run_time
  print(json.dumps(
    {"bench_name"   : bench_name,
     "compile_time" : compile_time,
     "run_time"     : run_time}))

@partial(benchit, "sum", 0)
def sum_bench(key):
  xs = random.normal(random.PRNGKey(key), shape=(10000,))
  return np.sum(xs[:, None] + xs[None, :], axis=0)

@partial(benchit, "gaussian", 0)
def gaussian_bench(key):
  return random.normal(random.PRNGKey(key), shape=(100000000,))

@partial(benchit, "matmul", 0)
def matmul_bench(key):
  mat = random.normal(random.PRNGKey(key), shape=(1000, 1000))
  return np.dot(mat, mat)
