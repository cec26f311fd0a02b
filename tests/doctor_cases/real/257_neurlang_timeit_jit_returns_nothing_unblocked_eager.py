# source: https://github.com/BasBuller/neurlang/blob/06a27e6db8fb2b6892e2d479e10b7cad7cc99559/benchmark.py
# title: neurlang `benchmark.py`: `timeit.timeit` of an element-wise expression in NumPy, PyTorch eager and `torch.compile`, and JAX eager and `@jax.jit`, each built by a factory whose `time_func` returns nothing
# established-by: maintainer BasBuller (the repository's benchmark script, which prints the per-backend figures it compares)
# cause: Every timed `time_func` computes `res = values * values + values * 2` and returns nothing. For JAX this is fatal twice over. The jitted `time_func` of `jax_function_fast` returns `None`, so XLA removes the whole expression as dead code and the 'Jax fast' figure is the dispatch of an empty program, whatever the array size (the catalogue's LB107). The eager `time_func` of `jax_function_slow` dispatches its four operations asynchronously and nothing waits for them, so the 'Jax slow' figure is dispatch too (LB102); the queued work lands in whichever later timing waits. The NumPy and PyTorch tensors are on the CPU, so those figures are the work; the `torch.compile`d functions return nothing as well, which the catalogue has no code for (not labelled). The factories warm the jitted and compiled functions before `timeit` runs, so no compile is timed. Code: the file as stored at commit 06a27e6, unchanged.
# static: LB107, LB102
# dynamic: n/a
# inferred: LB107 (the jitted `time_func` has no `return`; no one discussed it), LB102 (the eager JAX `time_func` is timed by `timeit` with no wait; no one discussed it)
# lines: LB107:69, LB102:92
# first-sight: 5c7b2e5 2026-12-06 py: found LB107:69; missed LB102:92; false none | notebook: found LB107:69; missed LB102:92; false none

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
