# source: https://github.com/Kilka74/GS_SOC/blob/b85e714dd21c34cf173f8ee0e3032ae3000660ae/jax_vs_torch.py
# title: GS_SOC's `jax_vs_torch.py`: a grouped 3x3 convolution timed in JAX (`jax.lax.conv_general_dilated` in a layer object wrapped in `jit`) against PyTorch's `nn.Conv2d` on CUDA, each by `timeit.timeit` of a statement string with `number=1000` inside a helper called once per channel count, the totals logged to Weights & Biases; a GPU warm-up helper runs `torch.utils.benchmark.Timer` first
# established-by: maintainer Kilka74 (the repository's author; the logged keys `jax_time` and `torch_time` and the helper's name `jax_conv_compiled` say what is compared; no issue discusses the script's timing)
# cause: What a correct doctor reports, by the catalogue. In `jax_conv_compiled` the layer is wrapped in `jit` and its first call is the first of the 1,000 calls of `timeit.timeit(stmt="jit_layer(inputs)", ...)`, with no warm-up, so the trace and XLA compilation of the convolution for each new channel count land in the logged total (LB103, 392's and 409's reading of a jitted call first made inside `timeit`); no call's result is waited for, so the total can stop when the last convolution is queued (LB102). In `torch_conv` the `nn.Conv2d` module and its inputs are on CUDA and `timeit.timeit(stmt="conv(inputs)", ...)` reads its clock with no `torch.cuda.synchronize()` (LB116), and the module is called with autograd on, no `torch.no_grad()` or `inference_mode()` around the timing, so every forward records a graph for a backward that never comes, which the JAX side does not pay (LB112). Each pair of codes belongs at its `timeit.timeit` call (the call line or its `stmt=` line). Not labelled: the figures are totals of 1,000 calls under `timeit`'s `perf_counter` (no LB104, no LB105); the `jit` wrapper is built once per channel count, outside the timed statement, and each count has its own shapes (no LB111, 295's reading of a jit built once per configuration); the `warmup` helper's `torch.utils.benchmark.Timer` synchronizes for itself and its `res` is never used or reported (a GPU warm-up, not a measurement: no LB112 there); `channel_shuffle_jax` is never called. Code: the file at commit b85e714, unchanged.
# static: LB103, LB102, LB116, LB112
# dynamic: n/a
# inferred: LB103 (the jitted layer compiles on its first call inside the timed statement; not discussed), LB102 (the JAX results are never waited for; not discussed), LB116 (CUDA convolutions timed without synchronize; not discussed), LB112 (the PyTorch module timed with autograd on; not discussed)
# lines: LB103:84/85, LB102:84/85, LB116:101/102, LB112:101/102
# first-sight: 0b61823 2026-12-06 py: found LB102:85 LB103:85 LB112:102 LB116:102; missed none; false LB112:53 | notebook: found LB102:85 LB103:85 LB112:102 LB116:102; missed none; false LB112:53

import jax
import jax.numpy as jnp
from jax import random
from jax import jit
import hydra
import wandb
import timeit
import torch
from torch import nn as nn
from torch.utils import benchmark


key = random.PRNGKey(0)

# Define the convolution function
def conv2d(inputs, kernel, strides=1, groups=1):
    """2D convolution with non-padded, 'valid' mode."""
    outputs = jax.lax.conv_general_dilated(
        inputs, kernel, window_strides=(strides, strides), padding='VALID',
        dimension_numbers=('NCHW', 'HWIO', 'NCHW'),
        feature_group_count=groups)
    return outputs


# Define the convolutional layer
class Conv2DLayer:
    def __init__(self, in_channels, out_channels, filter_shape, strides=1, padding='VALID', groups=1):
        self.in_channels = in_channels
        self.out_channels = out_channels
        self.filter_shape = filter_shape
        self.strides = strides
        self.padding = padding
        self.groups = groups
        fan_in = self.filter_shape[0] * self.filter_shape[1]
        self.w_init = random.normal(key, (self.filter_shape[0], self.filter_shape[1], self.in_channels//self.groups, self.out_channels)) * (1. / jnp.sqrt(fan_in))

    def __call__(self, inputs):
        return conv2d(inputs, self.w_init, self.strides, self.groups)

def warmup():
    linear = nn.Linear(10000, 512, device="cuda")
    x = torch.randn(64, 10000, device="cuda")
    t0 = benchmark.Timer(stmt="linear(x)", globals={"x": x, "linear": linear})
    res = t0.timeit(1000).mean
    del x
    del linear
    torch.cuda.empty_cache()

def channel_shuffle_jax(x, groups):
    batchsize, num_channels, height, width = x.shape

    channels_per_group = num_channels // groups

    # reshape
    x = x.reshape(batchsize, groups, channels_per_group, height, width)

    # transpose
    # - contiguous() required if transpose() is used before view().
    #   See https://github.com/pytorch/pytorch/issues/764
    x = jnp.transpose(x, (0, 2, 1, 3, 4))

    # flatten
    x = x.reshape(batchsize, -1, height, width)

    return x


def jax_conv_compiled(batch_size, in_channels, out_channels, h, w, groups=1):
    key = random.PRNGKey(0)
    layer = Conv2DLayer(in_channels, out_channels, filter_shape=(3, 3), groups=groups)

    jit_layer = jit(layer)
    inputs = random.normal(key, (batch_size, in_channels, h, w))
    time = timeit.timeit(
        stmt="jit_layer(inputs)",
        globals={
            "jit_layer": jit_layer,
            "inputs": inputs
        },
        number=1000
    )
    del inputs
    del jit_layer
    del layer
    return time


def torch_conv(batch_size, in_channels, out_channels, h, w, groups=1):
    inputs = torch.randn(batch_size, in_channels, h, w).cuda()
    conv = nn.Conv2d(in_channels, out_channels, kernel_size=3, groups=groups).cuda()
    time = timeit.timeit(
        stmt="conv(inputs)",
        globals={
            "conv": conv,
            "inputs": inputs
        },
        number=1000
    )
    del conv
    del inputs
    return time

@hydra.main(config_path="conf", config_name="compare_config", version_base=None)
def main(args):
    num_channels = list(map(int, args.channels.split()))
    wandb.login(key=args.wandb_key, relogin=True)
    wandb.init(
        entity="kilka74",
        project="MonarchSOC",
        tags=['jax_vs_torch'],
        name=f"jax vs torch, hidden_size=({args.hidden_size}, {args.hidden_size}), groups={args.groups}",
        config={
            "hidden_size": args.hidden_size,
            "kernel_size": args.kernel_size,
            "batch_size": args.batch_size,
            "groups": args.groups,
        }
    )
    for i in range(5):
        warmup()

    torch.cuda.empty_cache()

    for channels in num_channels:
        jax_compiled_time = jax_conv_compiled(
            args.batch_size,
            channels,
            channels,
            args.hidden_size,
            args.hidden_size,
            args.groups
        )
        torch_time = torch_conv(
            args.batch_size,
            channels,
            channels,
            args.hidden_size,
            args.hidden_size,
            args.groups
        )
        wandb.log({
            "channels": channels,
            "torch_time": torch_time,
            "jax_time": jax_compiled_time
        })
        torch.cuda.empty_cache()

    wandb.finish()

if __name__ == "__main__":
    main()
