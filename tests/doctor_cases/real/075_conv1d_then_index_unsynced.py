# source: https://github.com/pytorch/pytorch/issues/63091
# title: torch.nn.functional.conv1d with long kernels causing inconsistent behaviors in subsequent processing blocks
# established-by: maintainer ngimel
# cause: The long-kernel conv1d launched just before the timer is still running on the GPU when the clock starts, and the timed indexing waits behind it; nothing synchronises CUDA around the timed region, so the indexing seemed to slow down with the kernel length. The maintainer's answer: the asynchronous CUDA operations are not timed correctly (use torch.utils.benchmark.Timer).
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time() as the interval clock; the thread did not discuss it)
# lines: LB116:25, LB105:23
# first-sight: b744741 2026-12-02 py: found LB105:23; missed LB116:25; false LB116:24 | notebook: found LB105:23; missed LB116:25; false LB116:24

import torch
from time import time

print('Torch version {}'.format(torch.__version__))


def test_conv_timing(K):
    print('Kernel: {}'.format(5))
    x = torch.randn(1, 512, 160000, dtype=torch.float32, device='cuda')
    kernel = torch.randn(512, 1, K, dtype=torch.float32, device='cuda')
    for i in range(10):
        dummy = torch.nn.functional.conv1d(x, kernel, groups=512)
        start_time = time()
        idx = torch.randperm(512)
        y = x[:, idx, :]
        print('{} elapsed time {}s'.format(i, time() - start_time))


test_conv_timing(K=5)
test_conv_timing(K=20000)
