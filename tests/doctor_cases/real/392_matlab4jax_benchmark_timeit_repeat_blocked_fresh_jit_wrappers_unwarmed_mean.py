# source: https://github.com/inversecrime/matlab4jax/blob/b6ed865a6140b302d5c7ef7cc116a7d42e525257/test/benchmark.py
# title: matlab4jax `test/benchmark.py`: a 1300x1300 matrix inverse through MATLAB from JAX four ways (the package's `eval_function`, the MATLAB engine, and `run_matlab` through a file or not), each timed with `timeit.repeat(..., repeat=5, number=3)` of a blocked call, then the two `run_matlab` forms again under `jax.jit`
# established-by: maintainer inversecrime (the package's own benchmark script, by its author)
# cause: The helper times each function soundly: `timeit.repeat` of a lambda that waits with `jax.block_until_ready`, five repeats of three calls, printing the mean and the minimum per call, on an input made and waited for on the device first. The four unjitted functions are each called once before any timing (`y1`..`y4`, compared with `jnp.array_equiv`), so their one-time costs are paid. The last two benchmarks are not warmed: `jax.jit(partial(with_xla, ...))` builds a new jitted function in the argument of `benchmark`, and nothing calls it before `timeit.repeat`, so its first timed call traces and compiles (the eager warm-ups of `with_xla` do not warm a new `jax.jit` wrapper), and the printed 'mean' of the five repeats holds that compile (LB103, at the two `benchmark(jax.jit(...))` calls that hand over the cold function; inferred, the catalogue's 'an average over a loop is inflated by it', as case 324's fresh `jax.jit(jnp.matmul)`; the printed 'min' is clean). Each jitted wrapper is built once and reused by all fifteen timed calls of its benchmark, so no recompile per call (no LB111; case 261's reading). No issue discusses the script; the reading is the catalogue's. Code: the file as stored at commit b6ed865, unchanged.
# static: LB103
# dynamic: n/a
# inferred: LB103 (the two jitted wrappers are first called inside `timeit.repeat` and the mean is printed; not discussed)
# lines: LB103:73/75
# first-sight: 35efc1f 2026-12-06 py: found none; missed LB103:73/75; false LB103:48 | notebook: found none; missed LB103:73/75; false LB103:48

import timeit
from functools import partial
from typing import Any, Callable

import jax
import jax.numpy as jnp
from jax import Array, ShapeDtypeStruct

import matlab4jax
import matlab4jax.matlabengine


def with_jax(x: Array) -> Array:
    [y] = matlab4jax.eval_function("inv", [x])
    return y


def with_matlabengine(x: Array) -> Array:
    [y] = matlab4jax.matlabengine.eval_function("inv", [x])
    return y


def with_xla(x: Array, *, use_file: bool) -> Array:
    [y] = matlab4jax.run_matlab(
        inputs=[x],
        input_names=["x"],
        command="y = inv(x);",
        output_names=["y"],
        abstract_outputs=[ShapeDtypeStruct(x.shape, x.dtype)],
        use_file=use_file,
    )
    return y


def benchmark(function: Callable[..., Any]) -> None:
    repeat = 5
    number = 3
    times = timeit.repeat(lambda: jax.block_until_ready(function(x)), repeat=repeat, number=number)
    print(f"mean: {sum(times) / len(times) / number:.3f}s")
    print(f"min:  {min(times) / number:.3f}s")


n = 1300
x = jax.random.normal(jax.random.key(0), shape=(n, n))
jax.block_until_ready(x)
y1 = with_jax(x)
y2 = with_matlabengine(x)
y3 = with_xla(x, use_file=True)
y4 = with_xla(x, use_file=False)
assert jnp.array_equiv(y1, y2)
assert jnp.array_equiv(y1, y3)
assert jnp.array_equiv(y1, y4)

print("=== jax ===")
benchmark(with_jax)
print("=== matlabengine ===")
benchmark(with_matlabengine)
print("=== xla, use_file=True ===")
benchmark(partial(with_xla, use_file=True))
print("=== xla, use_file=False ===")
benchmark(partial(with_xla, use_file=False))
print("=== xla, use_file=True, jit ===")
benchmark(jax.jit(partial(with_xla, use_file=True)))
print("=== xla, use_file=False, jit ===")
benchmark(jax.jit(partial(with_xla, use_file=False)))
