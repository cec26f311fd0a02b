# source: https://github.com/fl0pedro/gated_deltanet_jax/blob/4fc6e101d131275ef215e78846e85b0deabda722/benchmark_jax.py
# title: gated_deltanet_jax's `benchmark_jax.py`: a Flax NNX Gated DeltaNet classifier over a grid of batch sizes, sequence lengths and widths, each configuration's `nnx.jit` forward and gradient timed first as 'Compile' and then once more as 'Run' between `time.time()` reads, every timed call waited, the runs inside a `PeakMemoryMonitor` block
# established-by: maintainer fl0pedro (the repository's author; the comments '# Warmup / Compile Forward' and '# Run Forward' and the table's `FwdCompile(s)` and `FwdRun(s)` columns say what each interval is meant to be; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. Each of the four intervals is waited before its end read (`jax.block_until_ready(out)`, and the gradient pytree through `tree_map(lambda l: l.block_until_ready(), grads)`), so no LB102. The first interval of each pair times the compile on purpose, as its comment and the `FwdCompile(s)` / `BwdCompile(s)` columns say (no LB103, no LB104 there; the first statement inside those clock pairs is the `try`). The reported run times, `FwdRun(s)` and `BwdRun(s)`, are one warm call each (LB104, at the `with PeakMemoryMonitor(...)` statement, the first inside each of the two clock pairs; 495's reading of a `with` block as the first statement). All four intervals start with `time.time()` (LB105, at the four start reads, as 489's and 495's). Noted, not labelled: `forward` and `backward` are `nnx.jit` functions defined inside `benchmark_run`, which `main` calls once per configuration; every configuration has new shapes, so each call compiles anyway and times that compile on purpose, and nothing is lost to the re-wrapping (not LB111; 261's and 295's reading of a jit built once per call of the function that times it). The input tokens are made by `jr.randint` on the device (no LB115). `gated_deltanet_jax` and `memory_monitor` are the repository's own modules, not shown. Code: the file at commit 4fc6e10, trimmed: five comment lines in `__call__` (musings on mean pooling) and the commented-out size lists and planning comments in `main` are left out; the rest unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (the reported forward and backward run times are one warm call each), LB105 (`time.time()` start reads); the catalogue's readings, not discussed
# lines: LB104:133/161, LB105:113/132/141/160
# first-sight: 6043315 2026-12-06 py: found LB105:113 LB105:132 LB105:141 LB105:160; missed LB104:133/161; false LB111:98 | notebook: found LB105:113 LB105:132 LB105:141 LB105:160; missed LB104:133/161; false LB111:98

import time
from itertools import product
import jax
import jax.numpy as jnp
import jax.random as jr
import flax.nnx as nnx
import optax
from gated_deltanet_jax import GatedDeltaNetConfig, GatedDeltaNetModel
from memory_monitor import PeakMemoryMonitor

class GatedDeltaNetClassifier(nnx.Module):
    def __init__(self, vocab_size, embd_dim, hidden_dim, num_layers, num_heads, key):
        config = GatedDeltaNetConfig(
            hidden_size=embd_dim,
            num_heads=num_heads,
            num_hidden_layers=num_layers,
            vocab_size=vocab_size,
            attn_mode='fused_recurrent', # Focusing on fused recurrent for speed/memory
            head_dim=embd_dim // num_heads if num_heads > 0 else embd_dim,
            intermediate_size=embd_dim * 4, # Standard expansion
            use_gate=True,
            use_short_conv=True
        )
        self.model = GatedDeltaNetModel(config, rngs=nnx.Rngs(key))
        self.head = nnx.Linear(embd_dim, 2, rngs=nnx.Rngs(key))

    def __call__(self, x):
        # x is (B, T)
        outputs = self.model(x)
        pooled = jnp.mean(outputs, axis=1)
        return self.head(pooled)

def benchmark_run(
    model_name,
    model_class,
    batch_size,
    seq_len,
    vocab_size,
    embd_dim,
    num_layers,
    num_heads,
    key,
):
    model_key, data_key = jr.split(key)

    # Check validity
    if num_heads > 0 and embd_dim % num_heads != 0:
        return {
            "Model": model_name,
            "Batch": batch_size,
            "SeqLen": seq_len,
            "Vocab": vocab_size,
            "Dim": embd_dim,
            "Layers": num_layers,
            "Heads": num_heads,
            "Status": "InvalidConfig" 
        }

    try:
        model = model_class(
            vocab_size=vocab_size,
            embd_dim=embd_dim,
            hidden_dim=embd_dim,
            num_layers=num_layers,
            num_heads=num_heads,
            key=model_key,
        )
    except Exception as e:
         return {
            "Model": model_name,
            "Batch": batch_size,
            "SeqLen": seq_len,
            "Vocab": vocab_size,
            "Dim": embd_dim,
            "Layers": num_layers,
            "Heads": num_heads,
            "Status": f"InitError: {e}" 
        }

    x = jr.randint(data_key, (batch_size, seq_len), 0, vocab_size)
    y_target = jnp.zeros((batch_size, 2))
    y_target = y_target.at[:, 0].set(1.0)

    # Compile Forward
    # NNX handles state. We need to be careful with JIT and NNX.
    # nnx.jit allows jitting the call.

    @nnx.jit
    def forward(m, x):
        return m(x)

    @nnx.jit
    def backward(m, x, y):
        def loss_fn(model, x, y):
            pred = model(x)
            return jnp.mean((pred - y) ** 2)
        
        grad_fn = nnx.grad(loss_fn)
        grads = grad_fn(m, x, y)
        return grads

    # Warmup / Compile Forward
    start = time.time()
    try:
        out = forward(model, x)
        jax.block_until_ready(out)
    except Exception as e:
         return {
            "Model": model_name,
            "Batch": batch_size,
            "SeqLen": seq_len,
            "Vocab": vocab_size,
            "Dim": embd_dim,
            "Layers": num_layers,
            "Heads": num_heads,
            "Status": f"FwdError: {e}" 
        }
    end = time.time()
    fwd_compile_time = end - start

    # Run Forward
    start = time.time()
    with PeakMemoryMonitor(interval=0.01) as mem:
        out = forward(model, x)
        jax.block_until_ready(out)
    end = time.time()
    fwd_run_time = end - start
    fwd_peak_mem = mem.peak

    # Warmup / Compile Backward
    start = time.time()
    try:
        grads = backward(model, x, y_target)
        jax.tree_util.tree_map(lambda l: l.block_until_ready(), grads)
    except Exception as e:
         return {
            "Model": model_name,
            "Batch": batch_size,
            "SeqLen": seq_len,
            "Vocab": vocab_size,
            "Dim": embd_dim,
            "Layers": num_layers,
            "Heads": num_heads,
            "Status": f"BwdError: {e}" 
        }
    end = time.time()
    bwd_compile_time = end - start

    # Run Backward
    start = time.time()
    with PeakMemoryMonitor(interval=0.01) as mem:
        grads = backward(model, x, y_target)
        jax.tree_util.tree_map(lambda l: l.block_until_ready(), grads)
    end = time.time()
    bwd_run_time = end - start
    bwd_peak_mem = mem.peak

    return {
        "Model": model_name,
        "Batch": batch_size,
        "SeqLen": seq_len,
        "Vocab": vocab_size,
        "Dim": embd_dim,
        "Layers": num_layers,
        "Heads": num_heads,
        "FwdCompile(s)": f"{fwd_compile_time:.4f}",
        "FwdRun(s)": f"{fwd_run_time:.4f}",
        "FwdMem(MB)": f"{fwd_peak_mem / 1e6:.2f}",
        "BwdCompile(s)": f"{bwd_compile_time:.4f}",
        "BwdRun(s)": f"{bwd_run_time:.4f}",
        "BwdMem(MB)": f"{bwd_peak_mem / 1e6:.2f}",
        "Status": "OK"
    }


def main():
    header = [
        "Model", "Batch", "SeqLen", "Vocab", "Dim", "Layers", "Heads",
        "FwdCompile(s)", "FwdRun(s)", "FwdMem(MB)",
        "BwdCompile(s)", "BwdRun(s)", "BwdMem(MB)", "Status"
    ]
    print("\t".join(header))

    key = jr.PRNGKey(42)

    # Full set
    batch_sizes = [16, 32, 64, 128]
    seq_lens = [2048, 4096, 8192, 16384, 32768, 65536]
    vocab_sizes = [128, 256]
    embed_dims = [64, 128, 256]
    layer_counts = [2, 4, 6]
    head_counts = [2, 4, 6, 8, 10, 12]

    for b, s, v, d, l, h in product(
        batch_sizes, seq_lens, vocab_sizes, embed_dims, layer_counts, head_counts
    ):
        key, subkey = jr.split(key)
        stats = benchmark_run(
            "JAX_GatedDeltaNet", GatedDeltaNetClassifier, b, s, v, d, l, h, subkey
        )
        row = [str(stats.get(col, "")) for col in header]
        print("\t".join(row))

if __name__ == "__main__":
    main()
