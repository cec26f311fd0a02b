# source: https://github.com/NVIDIA/TransformerEngine/blob/802c747612e831d1345862e97c9bea0d01642182/docs/getting_started/getting_started_utils_pytorch.py
# title: Transformer Engine 'Getting Started' (PyTorch) helper `speedometer`: forward and backward passes of a module warmed ten times between `torch.cuda.synchronize()` calls, then 100 timed between two CUDA events
# established-by: maintainer NVIDIA Transformer Engine (the documentation's PyTorch helper, the counterpart of case 261's JAX one)
# cause: Correct benchmark code. The helper synchronizes, runs ten warm-up forward and backward passes and synchronizes again, then records a CUDA event, runs 100 passes, records a second event and synchronizes before reading `elapsed_time`, so the figure is GPU time for the whole loop divided by the number of passes. Autograd is on because the timed work is a training step (forward, `loss.backward()`), not inference. Code: the file as stored (commit 802c747), the plain-PyTorch `DotProductAttention` module after the helper dropped.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 5c7b2e5 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# Copyright (c) 2022-2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.
#
# See LICENSE for license information.

"""
Utility functions for Getting Started with Transformer Engine - PyTorch
========================================================================

Helper classes and functions for the getting started examples.
"""

import math
from typing import Optional
import torch
import transformer_engine.pytorch as te


def speedometer(
    module: torch.nn.Module,
    x: torch.Tensor,
    forward_kwargs: dict = {},
    autocast_kwargs: Optional[dict] = None,
    timing_iters: int = 100,
    warmup_iters: int = 10,
    label: str = "benchmark",
) -> float:
    """Measure average forward + backward pass time for a PyTorch module.

    Args:
        module: PyTorch module to benchmark
        x: Input tensor
        forward_kwargs: Additional kwargs for forward pass
        autocast_kwargs: Kwargs for te.autocast context
        timing_iters: Number of timing iterations
        warmup_iters: Number of warmup iterations
        label: Optional label for logging

    Returns:
        Average time per iteration in milliseconds
    """
    start = torch.cuda.Event(enable_timing=True)
    end = torch.cuda.Event(enable_timing=True)
    if autocast_kwargs is None:
        autocast_kwargs = {"enabled": False}

    # Warmup runs
    torch.cuda.synchronize()
    for _ in range(warmup_iters):
        with te.autocast(**autocast_kwargs):
            y = module(x, **forward_kwargs)
            loss = y.sum()
        loss.backward()
    torch.cuda.synchronize()

    # Timing runs
    start.record()
    for _ in range(timing_iters):
        with te.autocast(**autocast_kwargs):
            y = module(x, **forward_kwargs)
            loss = y.sum()
        loss.backward()
    end.record()
    torch.cuda.synchronize()

    avg_time = start.elapsed_time(end) / timing_iters
    print(f"Mean time: {avg_time:.3f} ms")
    return avg_time
