# source: https://github.com/google-deepmind/dm-haiku/blob/b1bb49b2b0bb8282594c400a52e4eb3d3b08a197/haiku/benchmarks/eval_shape.py
# title: Haiku `haiku/benchmarks/eval_shape.py`: google_benchmark timings of shape inference for a transformed model's `init` (MLP and ResNet-50), `jax.eval_shape` against Haiku's `hk.experimental.fast_eval_shape`
# established-by: maintainer google-deepmind (Haiku's own benchmark suite, added with `fast_eval_shape`)
# cause: Correct code. Both benchmarks time abstract evaluation only: `jax.eval_shape(init, k, x)` traces `init` and returns `ShapeDtypeStruct`s without compiling or running anything on the device, and `hk.experimental.fast_eval_shape` does the same work faster, which is what the pair compares. There is no device result to wait for (no LB102) and nothing is compiled (no LB103); the inputs `x` and `k` are made before the loop (the key waited for). Re-tracing on every iteration is the subject measured, and `jax.eval_shape` is not `jax.jit` (no LB111). google_benchmark's `while state:` repeats the body until its timing is stable and reports per-iteration statistics, a timer's repetition of one call (no LB104, no LB114; the reading of cases 096 and 105, suites that time host-only work). The docstring 'Benchmark runtime of compiled hk.init_fn' on the second benchmark is copied from the init suite (case 389) and does not describe what it times. No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit b1bb49b, with its Apache licence comment left out (it is the same as case 389's).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 35efc1f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Benchmark eval_shape for Haiku models."""

import google_benchmark
import haiku as hk
import jax
import jax.numpy as jnp


def init_benchmark(model):
  """Compile/Trace/Run init."""
  input_shape = [100, 100, 100, 100]
  init, _ = hk.transform_with_state(model)

  @google_benchmark.register(name=f'{model.__name__}_init')
  def init_slow_bench(state):
    """Benchmark Jax trace of hk.init_fn of model."""
    x = jnp.ones(input_shape)
    k = jax.random.PRNGKey(42).block_until_ready()
    while state:
      jax.eval_shape(init, k, x)

  @google_benchmark.register(name=f'{model.__name__}_init_fast')
  def init_fast_bench(state):
    """Benchmark runtime of compiled hk.init_fn of model."""
    x = jnp.ones(input_shape)
    k = jax.random.PRNGKey(42).block_until_ready()
    while state:
      hk.experimental.fast_eval_shape(init, k, x)

  return init_slow_bench, init_fast_bench


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
