# source: https://github.com/TristanBilot/mlx-benchmark/pull/21
# title: Cuda devices need to be synced before timing
# established-by: answer by igm503 (the pull request that fixes it, merged into the benchmark by its maintainers)
# cause: The benchmark's timer wraps each torch forward pass, and the only synchronisation before the clock is read is torch.mps.synchronize() for MPS; on CUDA the kernels are still running, so the CUDA results were implausibly fast and did not scale between cards (0.02-0.06 ms for every operation). Code: mlx_benchmark/base_benchmark.py before the fix (stored at commit 29f92a7).
# static: LB116, LB105
# dynamic: n/a
# inferred: LB105 (time() as the interval clock; the pull request did not discuss it)
# lines: LB116:107, LB105:106
# first-sight: b744741 2026-12-02 py: found LB105:106; missed LB116:107; false none | notebook: found LB105:106; missed LB116:107; false none

from time import time

from config import USE_MLX

if USE_MLX:
    import mlx.core as mx

import numpy as np
import torch


class BaseBenchmark:
    """
    Base class for benchmarking different operations or layers.
    """

    def __init__(self, **kwargs):
        self.device = None
        self.y = []
        self.args_str = " ".join([f"{k[:3]}={v}" for k, v in kwargs.items()])

        self.kwargs = kwargs

    def compute_inputs(self, framework, device=None):
        """
        Generates the default inputs for all benchmarks.
        """
        dims = []
        for d in ["dim1", "dim2", "dim3"]:
            if d in self.kwargs:
                dim = self.kwargs[d].split("x")
                dims.append([int(i) for i in dim])

        if framework == "mlx":
            self.inputs = [mx.random.normal(dim).astype(mx.float32) for dim in dims]
        else:
            self.inputs = [
                torch.randn(dim, device=device, dtype=torch.float32) for dim in dims
            ]

        if "axis" in self.kwargs:
            self.axis = self.kwargs["axis"]

    def additional_preprocessing(self, framework=None):
        """
        Can be overridden if custom preprocessing has to be performed on the default
        `self.inputs` given to operations.
        """
        pass

    def forward_mlx(self, **kwargs):
        """
        Abstract method for the forward pass of the benchmark on MLX.
        Should be implemented by subclasses to define the actual computation
        or model inference to be benchmarked.
        """
        raise NotImplementedError

    def forward_torch(self, **kwargs):
        """
        Abstract method for the forward pass of the benchmark on torch.
        Same implementation in torch.
        """
        raise NotImplementedError

    def run(self, framework, device=None, **kwargs) -> float:
        """
        Runs the benchmark for a specified number of iterations.
        Measures and records the duration of each forward pass.
        """
        self.compute_inputs(framework, device)
        self.additional_preprocessing(framework)

        if framework == "mlx":
            forward_fn = self.forward_mlx

        elif framework == "torch":
            self.device = device
            forward_fn = self.forward_torch

        else:
            raise ValueError("Invalid framework.")

        # Measures runtime for n iterations.
        duration = [self._measure_runtime(forward_fn, **kwargs) for _ in range(2)][1]
        # [1:] is used to remove the first measure, usually slower
        # due to cold start.

        duration_ms = duration * 1000
        return duration_ms

    def _measure_runtime(self, fn, **kwargs) -> float:
        """
        Simply runs the forward method and measures metrics.
        """
        tic = time()
        fn(**kwargs)

        duration = time() - tic

        return duration

    def sync_mps_if_needed(self):
        """
        Call this function after every torch implementation to ensure
        the mps execution has finished.
        """
        if self.device == torch.device("mps"):
            torch.mps.synchronize()
