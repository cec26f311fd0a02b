# source: https://github.com/pytorch/pytorch/issues/537
# title: Initial call to .cuda() very slow with Titan X
# established-by: maintainer soumith ('you installed with Conda. Your Titan-X is Titan-X Pascal ... i am building Conda binaries which have pre-compiled code for 6.0 and 6.1 architectures'; installing from source or pip fixes it)
# cause: The first `.cuda()` took two minutes on a Titan X Pascal (sm_61) because the conda binaries of the time carried no machine code for compute capability 6.0/6.1, so the CUDA runtime JIT-compiled PyTorch's PTX for the card at first use; a GTX 980 Ti in the same machine was quick. A packaging fault, fixed by binaries built for those architectures, not a measurement fault. The measurement shows it honestly: each of ten copies is timed and printed on its own, so the first-use cost stands out instead of being averaged in, and a blocking `.cuda()` of a CPU tensor returns after the copy. `datetime.now()` reads a wall clock at both ends; not discussed. Code: the snippet as posted.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`datetime.now()`, a wall clock, as the interval timer; not discussed)
# lines: LB105:16
# first-sight: d3e47a7 2026-12-03 py: found LB105:16; missed none; false none | notebook: found LB105:16; missed none; false none

import torch
from datetime import datetime

for i in range(10):
    x = torch.randn(10, 10, 10, 10) # similar timings regardless of the tensor size
    t1 = datetime.now()
    x.cuda()
    print(i, datetime.now() - t1)
