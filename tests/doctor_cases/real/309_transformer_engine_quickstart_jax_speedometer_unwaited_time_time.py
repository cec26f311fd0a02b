# source: https://github.com/NVIDIA/TransformerEngine/blob/05b65a33c6937624be3cb64720419cb6972fae4f/docs/examples/quickstart_jax_utils.py
# title: Transformer Engine `docs/examples/quickstart_jax_utils.py`: the JAX quickstart's `speedometer`, 50 warm-up and 50 timed steps of a jitted `value_and_grad` between two `time.time()` reads, nothing waited for
# established-by: maintainer NVIDIA Transformer Engine (the helper module of the JAX quickstart notebook)
# cause: `speedometer` jits the forward and backward pass once (`create_train_step_fn` returns `jax.jit(fwd_bwd_fn)`) and warms it up for 50 steps outside the timing, so the compile is not in the figure. But no step is ever waited for: the 50 timed calls are dispatched and `end = time.time()` is read before their loss and gradients are ready, so 'Mean time' is dispatch time wherever dispatch is asynchronous (on the GPUs this quickstart targets the warm-up's queued work can also spill into the timed interval) (LB102, at the call in the timed loop). The interval is read with `time.time()`, the wall clock (LB105, at the start read). The later 'Getting Started' helper, case 261, waits on `(loss, grads)` inside every interval and reads `perf_counter`. No issue discusses this file; the readings are the catalogue's. Code: the file as stored at commit 05b65a3, with the `AttentionWrapper`, `DotProductAttention` and `BasicMLP` Flax modules (the models the quickstart times, untimed themselves) left out; the imports, `speedometer` and `create_train_step_fn` unchanged.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (no timed step is waited for before the clock stops; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:59, LB105:56
# first-sight: 803cd8e 2026-12-06 py: found LB105:56; missed LB102:59; false LB102:58 | notebook: found LB105:56; missed LB102:59; false LB102:58

# Copyright (c) 2022-2025, NVIDIA CORPORATION & AFFILIATES. All rights reserved.
#
# See LICENSE for license information.

import jax
import jax.numpy as jnp
import time
import math
from enum import Enum

from typing import Callable, Any, Dict, Optional, Tuple
from flax import linen as nn
import transformer_engine.jax as te
import transformer_engine.jax.flax as te_flax
from transformer_engine.jax.flax.transformer import DotProductAttention as TEDotProductAttention


def speedometer(
    model_apply_fn: Callable,
    variables: Any,
    input: jnp.ndarray,
    output_grad: jnp.ndarray,
    dropout_key: jax.random.PRNGKey,
    model_init_fn: Callable = None,
    forward_kwargs: dict = {},
    fp8_autocast_kwargs: Optional[dict] = None,
    timing_iters: int = 50,
    warmup_iters: int = 50,
) -> None:
    """Measure average runtime for a JAX module
    Perform forward and backward passes .
    """
    if fp8_autocast_kwargs is None:
        fp8_autocast_kwargs = {"enabled": False}
        model_init_fn = None

    train_step_fn = create_train_step_fn(model_apply_fn, fp8_autocast_kwargs, forward_kwargs)

    # Warm up runs
    key = dropout_key
    for _ in range(warmup_iters):
        key, step_key = jax.random.split(key)
        loss, (param_grads, other_grads) = train_step_fn(variables, input, output_grad, step_key)

    # Timing runs
    start = time.time()
    for _ in range(timing_iters):
        key, step_key = jax.random.split(key)
        loss, (param_grads, other_grads) = train_step_fn(variables, input, output_grad, step_key)
    end = time.time()

    print(f"Mean time: {(end - start) * 1000 / timing_iters} ms")


def create_train_step_fn(
    model_apply_fn: Callable,
    fp8_autocast_kwargs: Dict[str, Any],
    forward_kwargs: Dict[str, Any] = None,
) -> Callable:
    """
    Creates a JIT-compiled function that performs one forward/backward pass.
    """

    if forward_kwargs is None:
        forward_kwargs = {}

    def loss_fn(variables: Any, inp: jnp.ndarray, grad_target: jnp.ndarray, dropout_key):
        rngs = {"dropout": dropout_key}
        with te.fp8_autocast(**fp8_autocast_kwargs):
            # Forward Pass: Apply the model using current parameters and variables
            call_kwargs = {**forward_kwargs, "rngs": rngs}
            out = model_apply_fn(variables, inp, **call_kwargs)

        # grad_target = derivative of L (loss fn) over y (output) = signma(L)/sigma(y)
        # where grad_w(L) = gradient of loss over params = sigma(L)/sigma(y) * sigma(y)/sigma(w) --> chain rule
        #  sigma(y)/sigma(w) = J_model(w)
        return jnp.vdot(out, grad_target)

    def fwd_bwd_fn(*args, **kwargs):
        return jax.value_and_grad(loss_fn, argnums=(0, 1))(*args, **kwargs)

    # Use jax.value_and_grad to get the loss value and gradients simultaneously. (forward + backward pass)
    # ∇_params[output^T · grad_target] = grad_target^T · J_output(params) = VJP
    # fwd_bwd_fn = jax.value_and_grad(loss_fn, argnums=(0, 1))

    # JIT-compile the fwd_bwd_fn
    return jax.jit(fwd_bwd_fn)
