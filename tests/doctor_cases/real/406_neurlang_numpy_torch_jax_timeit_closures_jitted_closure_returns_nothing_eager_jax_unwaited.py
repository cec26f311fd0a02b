# source: https://github.com/BasBuller/neurlang/blob/06a27e6db8fb2b6892e2d479e10b7cad7cc99559/benchmark.py
# title: neurlang's `benchmark.py`: `timeit.timeit(func, number=50)` of closures computing `values * values + values * 2` on 5000x5000 arrays in NumPy, eager and `torch.compile`d PyTorch, eager JAX ('Jax slow') and a `@jax.jit` closure warmed once ('Jax fast'), none of which returns its result
# established-by: maintainer BasBuller (the repository author's benchmark script; no issue discusses its timing)
# cause: Every timed closure assigns `res = ...` and returns nothing. What a correct doctor reports, by the catalogue and the corpus's readings: the 'Jax fast' closure is jitted (`@jax.jit def time_func():`) and returns `None`, so XLA drops the whole product as dead code and the figure times an empty program's dispatch (LB107 at the jitted `def`, 257's and 399's reading of a jitted function with no `return`; no LB102 there, the empty program has nothing to wait for); the 'Jax slow' closure runs the three eager JAX operations and discards their result, so `timeit` stops once the 50 rounds are dispatched and nothing waits for the arrays (LB102, at the discarded JAX expression in `jax_function_slow` and at its `time_results("Jax slow", ...)` call). The eager JAX closure is the script's deliberate baseline beside its jitted twin, not op-by-op work to fix (no LB114, 299's reading). 'Jax fast' is warmed: `jax_function_fast` calls the freshly jitted closure once before returning it, so the timed rounds do not compile (no LB103; the fresh `jax.jit` is applied outside the timed statement, no LB111). `timeit.timeit(..., number=50)` divided by 50 is a mean of many calls on `perf_counter` (no LB104, no LB105). The PyTorch tensors are CPU tensors (no LB116), and the catalogue's LB107 is JAX's (the `torch.compile`d closures that return nothing are noted, not labelled). The printed figure multiplies seconds by 100,000 and calls them microseconds (an arithmetic slip the catalogue has no code for). Another stored version of the file, without the PyTorch functions, returns `res` from each closure. Code: the file as stored at commit 06a27e6, unchanged.
# static: LB107, LB102
# dynamic: n/a
# inferred: LB107 (the jitted closure returns nothing; not discussed), LB102 (the eager JAX closure's result is discarded unwaited; not discussed)
# lines: LB107:67/68, LB102:61/91

import timeit

import numpy as np
import jax
import torch


def numpy_function():
    values = np.random.randn(5000, 5000)
    def time_func():
        res = values * values + values * 2
    return time_func


def numpy_permute(contiguous):
    values = np.random.randn(5000, 5000)
    def time_func():
        res = np.transpose(values, (1, 0))
        if contiguous:
            res = np.ascontiguousarray(res)
    return time_func


def torch_function_slow():
    values = torch.randn(5000, 5000)
    def time_func():
        res = values * values + values * 2
    return time_func


def torch_function_fast():
    values = torch.randn(5000, 5000)
    @torch.compile
    def time_func():
        res = values * values + values * 2
    return time_func


def torch_permute(contiguous):
    values = torch.randn(5000, 5000)
    @torch.compile
    def time_func():
        res = torch.permute(values, (1, 0))
        if contiguous:
            res = res.contiguous()
    return time_func


def jax_function_slow():
    values = jax.random.normal(jax.random.PRNGKey(0), (5000, 5000))
    def time_func():
        res = values * values + values * 2
    return time_func


def jax_function_fast():
    values = jax.random.normal(jax.random.PRNGKey(0), (5000, 5000))
    @jax.jit
    def time_func():
        res = values * values + values * 2
    _ = time_func()
    return time_func


def time_results(prefix, func):
    print(f"{prefix}: {timeit.timeit(func, number=N_ITER) / N_ITER * 100000:.1f} micro seconds")


if __name__ == "__main__":
    N_ITER = 50

    jax_function_fast()()
    torch_function_fast()()
    
    time_results("Numpy", numpy_function())
    time_results("Numpy permute non-contiguous", numpy_permute(False))
    time_results("Numpy permute contiguous", numpy_permute(True))
    time_results("Torch slow", torch_function_slow())
    time_results("Torch fast", torch_function_fast())
    time_results("Torch permute non-contiguous", torch_permute(False))
    time_results("Torch permute contiguous", torch_permute(True))
    time_results("Jax slow", jax_function_slow())
    time_results("Jax fast", jax_function_fast())
