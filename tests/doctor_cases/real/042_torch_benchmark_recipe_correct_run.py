# source: https://pytorch.org/tutorials/recipes/recipes/benchmark.html
# explain: batched_dot_mul_sum, batched_dot_bmm
# dynamic: none
# Runnable copy of 042_torch_benchmark_recipe_correct.py for levelbench.explain: smallest sizes that keep the pattern.

import torch


def batched_dot_mul_sum(a, b):
    '''Computes batched dot by multiplying and summing'''
    return a.mul(b).sum(-1)


def batched_dot_bmm(a, b):
    '''Computes batched dot by reducing to ``bmm``'''
    a = a.reshape(-1, 1, a.shape[-1])
    b = b.reshape(-1, b.shape[-1], 1)
    return torch.bmm(a, b).flatten(-3)


def batched_dot_mul_sum_args():
    x = torch.randn(1000, 64)
    return (x, x)


def batched_dot_bmm_args():
    x = torch.randn(1000, 64)
    return (x, x)
