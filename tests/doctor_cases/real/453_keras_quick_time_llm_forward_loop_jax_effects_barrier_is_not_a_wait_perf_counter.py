# source: https://github.com/keras-team/keras/blob/57bddda3b0b080e02c9355a636656197ac77963c/benchmarks/quick_time.py
# title: Keras's `benchmarks/quick_time.py` ('Quick timing for both backends', from the Keras overhead work that followed keras-team/keras#22561): 30 warm-up forwards of a small Keras LLM, then 100 forwards between two `perf_counter` reads, the JAX backend's wait before the second read being `jax.effects_barrier()`
# established-by: maintainer pctablet505 (the author of #22561 and of the overhead scripts committed beside this one in keras-team/keras; no thread discusses this file's timing)
# cause: The script times the per-call cost of a Keras LLM forward on the torch and JAX backends. The forward is warmed (30 calls, the compile and Keras's first-call work outside the clock), the 100 timed calls are averaged (no LB104), and the token ids are converted to a backend tensor before the clock (no LB115). But the wait after the timed loop, for the JAX backend, is `jax.effects_barrier()`, which waits until pending side effects (host callbacks, ordered effects) are done, not for the results of computations already dispatched: Keras-JAX forwards are dispatched asynchronously, so the clock can stop with forwards still queued, and the figure is dispatch time where the queue never fills (LB102, at the timed `llm(ids, training=False)` in the loop; waiting on the last output with `jax.block_until_ready` would time the work). Noted, not labelled: the torch branch synchronizes only MPS (`torch.mps.synchronize()`), so on CUDA the torch figure would not wait either, and the torch-backend forwards run with autograd recording (no `torch.no_grad()`, which bench.py's Keras-torch rows use); both concern PyTorch work hidden behind a Keras model, which the catalogue's PyTorch rules cannot see, and the script was run on Apple silicon. Code: the file at commit 57bddda, unchanged.
# static: LB102
# dynamic: n/a
# inferred: LB102 (`jax.effects_barrier()` taken for a wait on dispatched forwards; the catalogue's reading, not discussed anywhere)
# lines: LB102:69
# first-sight: fb4008d 2026-12-06 py: found none; missed LB102:69; false none | notebook: found none; missed LB102:69; false none

"""Quick timing for both backends."""

import os
import time

import numpy as np

BACKEND = os.environ.get("KERAS_BACKEND", "torch")

import keras
from keras import layers
from keras import ops

VOCAB = 1024
SEQ = 64
HDIM = 256
HEADS = 4
NLAYERS = 2
BATCH = 4

inp = keras.Input((None,), dtype="int32")
x = layers.Embedding(VOCAB, HDIM)(inp)
for _ in range(NLAYERS):
    r = x
    x = layers.LayerNormalization()(x)
    x = layers.MultiHeadAttention(HEADS, HDIM // HEADS)(
        x, x, use_causal_mask=True
    )
    x = x + r
    r = x
    x = layers.LayerNormalization()(x)
    x = layers.Dense(HDIM * 4, activation="gelu")(x)
    x = layers.Dense(HDIM)(x) + r
x = layers.Dense(VOCAB)(layers.LayerNormalization()(x))
llm = keras.Model(inp, x)

ids = ops.convert_to_tensor(np.ones((BATCH, SEQ), dtype="int32"))


def sync():
    if BACKEND == "torch":
        import torch

        if torch.backends.mps.is_available():
            torch.mps.synchronize()
    elif BACKEND == "jax":
        import jax

        jax.effects_barrier()


for _ in range(30):
    llm(ids, training=False)
sync()

N = 100
t0 = time.perf_counter()
for _ in range(N):
    llm(ids, training=False)
sync()
ms = (time.perf_counter() - t0) / N * 1e3
print(f"BACKEND={BACKEND}  LLM forward: {ms:.2f} ms")
