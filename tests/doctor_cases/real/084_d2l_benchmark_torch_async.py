# source: https://d2l.smola.org/slides/pytorch/chapter_computational-performance/async-computation.html
# title: Asynchronous Computation (Asynchrony in action), Dive into Deep Learning slides, PyTorch
# established-by: maintainer d2l-ai (the book's own text)
# cause: The 'torch' benchmark times ten torch.randn/torch.mm pairs on the GPU with nothing synchronising them, so it measures the launches (numpy: 0.3747 sec, torch: 0.0007 sec): the Python frontend returns before the GPU has computed. The book's next cell, which ends its Benchmark block with torch.cuda.synchronize(device), gives the real figure and must stay quiet. Code: the slides' cells as posted; d2l.Benchmark is a timing context manager.
# static: LB116
# dynamic: n/a
# inferred: none
# lines: LB116:29
# first-sight: 7299de2 2026-12-02 py: found none; missed LB116:29; false none | notebook: found none; missed LB116:29; false none

from d2l import torch as d2l
import numpy, os, subprocess
import torch
from torch import nn
# %%
# Warmup for GPU computation
device = d2l.try_gpu()
a = torch.randn(size=(1000, 1000), device=device)
b = torch.mm(a, a)

with d2l.Benchmark('numpy'):
    for _ in range(10):
        a = numpy.random.normal(size=(1000, 1000))
        b = numpy.dot(a, a)

with d2l.Benchmark('torch'):
    for _ in range(10):
        a = torch.randn(size=(1000, 1000), device=device)
        b = torch.mm(a, a)
# %%
with d2l.Benchmark():
    for _ in range(10):
        a = torch.randn(size=(1000, 1000), device=device)
        b = torch.mm(a, a)
    torch.cuda.synchronize(device)
