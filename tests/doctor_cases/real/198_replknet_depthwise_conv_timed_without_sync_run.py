# source: https://github.com/DingXiaoH/RepLKNet-pytorch/issues/47
# explain: forward_backward
# dynamic: none
# first-sight: 88e72af 2026-12-03 explain: found none; missed none; false LB280
# Runnable copy of 198_replknet_depthwise_conv_timed_without_sync.py for levelbench.explain: the `nn.Conv2d`
# side of the comparison (31x31 depthwise, forward and backward of the mean), on CPU with 8 channels, a batch
# of 2 and 32x32 inputs instead of 1000 channels and a batch of 64; the implicit-GEMM kernel is a CUDA
# extension and is left out.

import torch
import torch.nn as nn


def forward_backward(m, x):
    y = m(x)
    y.mean().backward()
    return y


def forward_backward_args():
    m = nn.Conv2d(8, 8, 31, padding=31 // 2, bias=False, groups=8)
    return (m, torch.randn(2, 8, 32, 32))
