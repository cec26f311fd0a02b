# source: https://github.com/pytorch/pytorch/issues/18012
# explain: model
# dynamic: LB280, LB281
# Runnable copy of 009_test_speed_syntax_error.py for levelbench.explain: smallest sizes that keep the pattern.

import torch

# MyNetwork is not shown in the issue; a small conv + batch-norm stand-in keeps
# what matters: `bn.eval()` never puts `model` in eval mode, and the call runs
# with autograd on.
model = torch.nn.Sequential(
    torch.nn.Conv2d(3, 8, 3, padding=1),
    torch.nn.BatchNorm2d(8),
    torch.nn.ReLU(),
)
bn = torch.nn.BatchNorm2d(8)
bn.eval()


def model_args():
    return (torch.randn(1, 3, 64, 64),)
