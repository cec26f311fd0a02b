# source: https://github.com/habanero-lab/APPy/blob/21cbafcf5d46e75a1dbab786128dba6d73a56461/slap/utils.py
# title: APPy `slap/utils.py`: a `bench(fn)` helper that times `fn()` with `torch.utils.benchmark.Timer(...).timeit(20)` and returns the mean in milliseconds
# established-by: maintainer habanero-lab (the APPy compiler project's timing helper for its GPU kernels against PyTorch)
# cause: Correct timing code: `torch.utils.benchmark.Timer` synchronizes CUDA around its measurements itself (so no LB116 for the GPU kernels it times), `timeit(20)` runs untimed warm-up calls before the 20 timed ones, and the helper reports the mean of the measurement with the thread count fixed to the process's. The helper cannot know whether `fn` returns JAX work, and APPy times PyTorch and Triton kernels with it. Code: the file as stored at commit 21cbafc, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: aea0196 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import torch
import torch.utils.benchmark as torchbench

def bench(fn):
    t0 = torchbench.Timer(
        stmt='fn()',
        globals={'fn': fn},
        num_threads=torch.get_num_threads()
    )
    return t0.timeit(20).mean * 1000
