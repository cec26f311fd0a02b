# source: https://github.com/jax-ml/bonsai/blob/05740566dca7e6f1e7e8c7c91d9b239a645d28c4/bonsai/models/resnet/tests/run_model.py
# title: Bonsai (JAX's model zoo in Flax NNX) ResNet-50 `tests/run_model.py`: a pretrained NNX ResNet-50 run through the `@jax.jit` `forward` of its `modeling.py`, warmed by one waited call, traced with `jax.profiler.start_trace`/`stop_trace` over five waited calls, then ten waited calls timed between two `time.perf_counter()` reads
# established-by: maintainer jax-ml (the model zoo's own run script; no issue discusses its timing)
# cause: Correct code for what it reports. `model_lib.forward` is `@jax.jit def forward(model, x): return model(x)` in the same commit's `modeling.py`, so the first call, made and waited for before any timing, compiles it; the profiler trace holds five calls each waited for before the next and stopped after the last (the programmatic-capture form of cases 073 and 308, no clock read there); and the timed loop runs ten calls of the compiled function at the shapes of the warm-up, each waited for with `jax.block_until_ready` before the next, between two `perf_counter` reads, so the printed '10 runs took' is the device work of ten calls (no LB102, LB103 or LB105; ten calls in one clock pair are not a single sample, the reading of cases 325 and 370). The input is made on the device by `jnp.ones` before the timing, the checkpoint download and weight loading happen before it, and the `argmax` after the clock stops is untimed. A correct doctor stays quiet. Code: the file as stored at commit 0574056, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 9bb132d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# Copyright 2025 The JAX Authors.
#
# Licensed under the Apache License, Version 2.0 (the "License");
# you may not use this file except in compliance with the License.
# You may obtain a copy of the License at
#
#     http://www.apache.org/licenses/LICENSE-2.0
#
# Unless required by applicable law or agreed to in writing, software
# distributed under the License is distributed on an "AS IS" BASIS,
# WITHOUT WARRANTIES OR CONDITIONS OF ANY KIND, either express or implied.
# See the License for the specific language governing permissions and
# limitations under the License.

import os
import time

import jax
import jax.numpy as jnp
from huggingface_hub import snapshot_download

from bonsai.models.resnet import modeling as model_lib
from bonsai.models.resnet import params


def run_model(MODEL_CP_PATH=None):
    # 1. Download safetensors file
    model_ckpt_path = snapshot_download("microsoft/resnet-50")

    # 2. Load pretrained model
    config = model_lib.ModelCfg.resnet50()
    model = params.create_resnet_from_pretrained(model_ckpt_path, config)

    # 3. Prepare dummy input
    batch_size = 8
    image_size = 224
    dummy_input = jnp.ones((batch_size, image_size, image_size, 3), dtype=jnp.float32)

    # 4. Warmup + profiling
    # Warmup (triggers compilation)
    _ = model_lib.forward(model, dummy_input)
    jax.block_until_ready(_)

    # Profile a few steps
    jax.profiler.start_trace("/tmp/profile-resnet50")
    for _ in range(5):
        logits = model_lib.forward(model, dummy_input)
        jax.block_until_ready(logits)
    jax.profiler.stop_trace()

    # 5. Timed execution
    t0 = time.perf_counter()
    for _ in range(10):
        logits = model_lib.forward(model, dummy_input)
        jax.block_until_ready(logits)
    print(f"10 runs took {time.perf_counter() - t0:.4f} s")

    # 6. Show top-1 predicted class
    pred = jnp.argmax(logits, axis=-1)
    print("Predicted classes:", pred)


if __name__ == "__main__":
    run_model()

__all__ = ["run_model"]
