# source: https://github.com/triton-lang/kernels/issues/5
# title: perf timing is not accurate for gpu: the repository's `Profiler.profiling_decorator` benchmarks each decorated function with `time.perf_counter()` read around the call, and the issue asks to move to `torch.cuda.Event`
# established-by: maintainer adamomainz (opened the issue about the project's own benchmarking: 'Currently we are using perf_counter for benchmarking. we want to change this to torch.cuda.Event', pointing to the PyTorch forum thread on timing GPU work)
# cause: With `benchmark=True`, the decorator's wrapper reads `time.perf_counter()` before and after `func(*args, **kwargs)` and appends the interval to `benchmark_vals`, whose averages `get_benchmark_vals` reports. The decorated functions are the repository's model operations (for example `@Profiler.profiling_decorator(record_name="RMSNorm")` on its Llama math ops, Triton or torch on the GPU), whose work is only queued when the call returns, and nothing synchronizes the device before the second clock read, so each figure is the launch time, not the GPU time, as the issue says (LB116 at the timed call inside the wrapper, where case 186 puts the unwaited call of a timing decorator). The `torch.profiler.record_function` context around the call only names the region in a profiler trace and waits for nothing. Not labelled: the averages include every call, the first ones too, but the catalogue's first-call code (LB103) is for jitted JAX functions, and the thread does not discuss it. Code: `benchmarking/profiler.py` as stored at commit 6bddde4, unchanged.
# static: LB116
# dynamic: n/a
# inferred: none
# lines: LB116:47
# first-sight: f5b8aeb 2026-12-06 py: found none; missed LB116:47; false none | notebook: found none; missed LB116:47; false none

import torch
import contextlib
import time
from collections import defaultdict


class Profiler:
    _instance = None

    def __new__(cls, should_profile: bool = False, benchmark: bool = False):
        if cls._instance is None:
            cls._instance = super().__new__(cls)
            cls._instance.profiler = torch.profiler.profile(record_shapes=True, with_flops=True, profile_memory=True, with_stack=True, with_modules=True) if should_profile else None
            cls._instance.benchmark = benchmark
            cls._instance.benchmark_vals = defaultdict(list)
            cls._instance.function_stack = []

        return cls._instance
    
    @classmethod
    def reset(cls):
        cls._instance = None
    
    @classmethod
    def profiling_decorator(cls, record_name: str = None, skip_profiling: bool = False, skip_benchmark: bool = False):
        def inner(func):
            def wrapper(*args, **kwargs):
                if not cls._instance or (skip_profiling and skip_benchmark):
                    return func(*args, **kwargs)
                cls._instance.function_stack.append(record_name or func.__name__)
                name = ".".join(cls._instance.function_stack)
                if cls._instance.profiler and not skip_profiling:
                    cls._instance.profiler.start()
                start_time = time.perf_counter()
                
                with torch.profiler.record_function(name):
                    result = func(*args, **kwargs)
                
                end_time = time.perf_counter()
                if cls._instance.benchmark and not skip_benchmark:
                    cls._instance.benchmark_vals[name].append(end_time - start_time)
                if cls._instance.profiler and not skip_profiling:
                    cls._instance.profiler.stop()
                cls._instance.function_stack.pop()
                return result
            return wrapper
        return inner
    
    @classmethod
    def step(cls):
        if cls._instance and cls._instance.profiler:
            cls._instance.profiler.step()
    
    @classmethod
    def get_benchmark_vals(cls):
        if cls._instance and cls._instance.benchmark:
            return {k: sum(v) / len(v) for k, v in cls._instance.benchmark_vals.items()}
        return None
    
    @classmethod
    def get_profiling_data(cls):
        if cls._instance and  cls._instance.profiler:
            return self.profiler.key_averages()
        return None
    
