# source: https://github.com/microsoft/knossos-ksc/pull/895
# title: Benchmark: use no_grad() in PyTorch for inference
# established-by: maintainer cgravill
# cause: The pytest-benchmark inference test timed the PyTorch function with autograd on, so every timed call recorded a graph for a backward pass that never came; the maintainer's PR wraps the inference benchmark in torch.no_grad() ('Given this is the right thing to do I suggest adding this in any case'; its effect was hard to tell from other shifts between the runs). test_forward and test_backwards need gradients by design. Whether func runs on CUDA without a synchronize inside the fixture was not discussed and is not labelled. Code: src/bench/test_run_bench.py before the PR (a stored version).
# static: LB112
# dynamic: n/a
# inferred: none
# lines: LB112:20
# first-sight: 7299de2 2026-12-02 py: found none; missed LB112:20; false none | notebook: found none; missed LB112:20; false none

import pytest
import torch
from benchmark_shim import benchmark_semi_pedantic

cpu_device = torch.device("cpu")


def test_inference(benchmark, reference_func, func, config):
    config_on_func_device = func.to_device(config)
    result = benchmark_semi_pedantic(benchmark, func.func, config_on_func_device).to(
        cpu_device
    )
    reference_result = reference_func(config)
    # TODO: generalise correctness test as examples require more than single tensor
    assert torch.allclose(
        result, reference_result
    ), f"Result and reference differ too much {result} {reference_result}"


def test_forward(benchmark, reference_func, func, config):
    config.requires_grad = True
    config_on_func_device = func.to_device(config)
    result = benchmark_semi_pedantic(benchmark, func.func, config_on_func_device).to(
        cpu_device
    )
    reference_result = reference_func(config)
    # TODO: generalise correctness test as examples require more than single tensor
    assert torch.allclose(
        result, reference_result
    ), f"Result and reference differ too much {result} {reference_result}"


def test_backwards(benchmark, reference_func, func, config):
    config.requires_grad = True
    config_on_func_device = func.to_device(config)

    def create_fresh_args():
        loss = func.func(config_on_func_device).sum()
        return (loss, config), {}

    # We need to use pedantic mode to have a fresh arguments via a setup function,
    # but that means we need to specify rounds ourselves.
    # TODO: Investigate more
    result = benchmark_semi_pedantic(
        benchmark, torch.autograd.grad, setup=create_fresh_args
    )

    reference_loss = reference_func(config).sum()
    reference_result = torch.autograd.grad(reference_loss, config)
    assert torch.allclose(
        result[0].to(cpu_device), reference_result[0]
    ), f"Result and reference differ too much {result} {reference_result}"
