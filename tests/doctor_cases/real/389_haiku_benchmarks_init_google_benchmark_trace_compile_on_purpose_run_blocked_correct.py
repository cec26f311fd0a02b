# source: https://github.com/google-deepmind/dm-haiku/blob/043855604b1b78c5d3886a0af2c3c409bbc51c29/haiku/benchmarks/init.py
# title: Haiku `haiku/benchmarks/init.py`: google_benchmark timings of a transformed model's `init` for an MLP and ResNet-50, three benchmarks per model: tracing (`jax.xla_computation`), XLA compilation (`backend.compile`) and the run of the jitted `init`, warmed up and waited for on every iteration
# established-by: maintainer google-deepmind (Haiku's own benchmark suite, 'Benchmark trace/compile/run timings of init functions')
# cause: Correct code. The suite splits the cost of `init` into its three parts and times each on purpose. `trace_bench` times tracing alone: `jax.xla_computation(init)(k, x)` builds the XLA computation on the host and runs nothing on the device, so there is nothing to wait for (no LB102), and re-tracing on every iteration is what it measures (not `jax.jit`, no LB111). `compile_bench` traces once outside the loop and times `b.compile(c)`, the XLA compile on purpose (no LB103: the compile is the subject). `run_bench` builds `jax.jit(init)` once, calls it once to compile ('run jit once to compile'), then each iteration calls it and waits for every leaf of `params` with `block_until_ready` (no LB102, no LB103; the warm-up call itself is not waited for, so its run can overlap the first of google_benchmark's many iterations, a negligible share of the figure); the discarded state comes out of the same executable. google_benchmark's `while state:` repeats each body until its timing is stable and reports per-iteration statistics, a timer's repetition of one call (no LB104, no LB114). The inputs are made on the device and waited for before any timing. `jax.xla_computation` and `jax.lib.xla_bridge.get_backend` have since been removed from JAX, but they are attribute calls, not imports (LB113 is about imports; the file imports only `google_benchmark`, `haiku`, `jax` and `jax.numpy`). No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit 0438556, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 35efc1f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# Copyright 2020 DeepMind Technologies Limited. All Rights Reserved.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.
# ==============================================================================
"""Benchmark trace/compile/run timings of init functions."""

import google_benchmark
import haiku as hk
import jax
import jax.numpy as jnp


def init_benchmark(model):
  """Compile/Trace/Run init."""
  input_shape = [100, 100, 100, 100]
  init, _ = hk.transform_with_state(model)

  @google_benchmark.register(name=f'trace_{model.__name__}')
  def trace_bench(state):
    """Benchmark Jax trace of hk.init_fn of model."""
    x = jnp.ones(input_shape).block_until_ready()
    k = jax.random.PRNGKey(42)

    while state:
      jax.xla_computation(init)(k, x)

  @google_benchmark.register(name=f'compile_{model.__name__}')
  def compile_bench(state):
    """Benchmark Jax compile of hk.init_fn of model."""
    x = jnp.ones(input_shape).block_until_ready()
    k = jax.random.PRNGKey(42)

    c = jax.xla_computation(init)(k, x)
    b = jax.lib.xla_bridge.get_backend()

    while state:
      b.compile(c)

  @google_benchmark.register(name=f'run_{model.__name__}')
  def run_bench(state):
    """Benchmark runtime of compiled hk.init_fn of model."""
    x = jnp.ones(input_shape).block_until_ready()
    k = jax.random.PRNGKey(42)

    jitted_init = jax.jit(init)
    # run jit once to compile
    jitted_init(k, x)

    while state:
      params, _ = jitted_init(k, x)
      # block on computation to finish
      jax.tree_util.tree_map(lambda x: x.block_until_ready(), params)

  return trace_bench, compile_bench, run_bench


# Models to be benchmarked
@init_benchmark
def mlp(x):
  return hk.nets.MLP([300, 100, 10])(x)


@init_benchmark
def resnet_50(x):
  return hk.nets.ResNet50(num_classes=10)(x, is_training=True,
                                          test_local_stats=True)

if __name__ == '__main__':
  google_benchmark.main()
