# source: https://github.com/pytorch/pytorch/issues/42108
# title: The cuda version of torch.det is much slower than cpu version, why?
# established-by: maintainer ngimel ('the first cuda run is slower because it includes Magma library initialization ... not performing correct synchronizations either. Please use Timer utility to properly benchmark code ... With proper timing, cuda det is much faster than cpu det')
# cause: Each device is timed with one `time.time()` sample of one call. The CUDA sample is the first `torch.det` on the GPU, so it holds MAGMA's initialisation (1.55 s against 0.012 s on the CPU), and it is not synchronized: the clock stops when the kernels are queued, not when they finish. Timed with torch.utils.benchmark's Timer, after a warm-up, the CUDA determinant is much faster than the CPU one. Code: the script as posted.
# static: LB116, LB104, LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval timer; not discussed)
# lines: LB116:21, LB104:16/21, LB105:15/20
# first-sight: d3e47a7 2026-12-03 py: found LB105:15 LB104:16 LB105:20 LB104:21 LB116:21; missed none; false LB116:16 | notebook: found LB105:15 LB104:16 LB105:20 LB104:21 LB116:21; missed none; false LB116:16

import torch
import time

t = torch.randn(4, 784, 4, 3, 3)
tic_start = time.time()
torch.det(t)
print("cpu: ", time.time() - tic_start)

t = t.cuda()
tic_start = time.time()
torch.det(t)
print("cuda: ", time.time() - tic_start)
