# source: https://github.com/Samarth-Hiremath1/Distributed-Transformer-Lab/blob/1573b0321a2b76d5ace2d8b6a22184662fa66195/benchmark_jax.py
# title: Distributed-Transformer-Lab's `benchmark_jax.py`: a four-layer Flax GPT forward pass under `jax.jit`, timed inside the helper `benchmark_jax` at four sequence lengths, each first call timed alone as 'First Call (ms)' ('Tracing + XLA Compilation') and then ten waited calls between `perf_counter` reads, their mean reported with tokens per second, the results saved to JSON for a comparison script
# established-by: maintainer Samarth-Hiremath1 (the repository's author; the comments 'FIRST CALL (Tracing + XLA Compilation)' and 'We must block_until_ready() because JAX executes asynchronously' and the printed column names say what each figure measures; the repository's `compare_frameworks.py` prints the first-call figure as 'JAX (first run)' beside 'JAX + jit'; no issue discusses the timing)
# cause: Correct for what the catalogue checks. Each sequence length's first call of `jit_forward` is timed alone on purpose, as the comment above it and the 'First Call (ms)' column say, so its compile is what that figure measures (no LB103, no LB104: 200's, 212's and 216's reading of a first call the code says it times for its compile); every timed call is waited with `jax.block_until_ready` before the end read (no LB102); the reported latency is the mean of ten warm samples under `perf_counter` (no LB104, no LB105); the input is made with `jnp.zeros` on the device before each clock starts (no LB115). The loop over `seq_lengths` calls the jitted function at four new shapes, each once compiled in its own first-call figure and never returned to, a sweep over sizes timed on purpose, not a retrace per call (no LB117, the corpus's reading of a sweep over sizes). `tracemalloc` runs during both timings and adds its Python-allocation bookkeeping to each figure; the catalogue has no code for it. A correct doctor stays quiet. Code: the file at commit 1573b03, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0b61823 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import time
import json
import tracemalloc
import jax
import jax.numpy as jnp
import numpy as np
from model_jax import GPT, GPTConfig

def benchmark_jax():
    print("Initializing JAX/Flax model...")
    config = GPTConfig(
        n_layer=4,
        n_head=4,
        d_model=128,
        d_ff=512,
        block_size=256, # accommodate up to 256 for the benchmark
        vocab_size=50257
    )
    model = GPT(config)
    
    # Initialize explicit PRNG key
    rng = jax.random.PRNGKey(0)
    
    # Initialize model parameters with a dummy input
    dummy_input = jnp.zeros((1, 32), dtype=jnp.int32)
    variables = model.init(rng, dummy_input)
    params = variables['params']

    @jax.jit
    def jit_forward(p, idx):
        return model.apply({'params': p}, idx)

    seq_lengths = [32, 64, 128, 256]
    results = {}

    print(f"{'Seq Len':<10} | {'First Call (ms)':<17} | {'Subsequent (ms)':<17} | {'Tokens/sec':<15} | {'Memory (MB)':<15}")
    print("-" * 85)

    for seq_len in seq_lengths:
        # Create static shaped input for this specific sequence length
        x = jnp.zeros((1, seq_len), dtype=jnp.int32)
        
        # Start memory tracking
        tracemalloc.start()
        
        # 1. FIRST CALL (Tracing + XLA Compilation)
        # JAX will trace the python code and compile it for the specific input shape (1, seq_len).
        # This is very slow.
        start_time = time.perf_counter()
        _ = jit_forward(params, x)
        # We must block_until_ready() because JAX executes asynchronously
        _ = jax.block_until_ready(_)
        end_time = time.perf_counter()
        first_call_ms = (end_time - start_time) * 1000
        
        # 2. SUBSEQUENT CALLS (Pure compiled execution)
        # Now the graph is compiled. Python code is bypassed. It runs directly on CPU.
        latencies = []
        for _ in range(10):
            start_time = time.perf_counter()
            _ = jit_forward(params, x)
            _ = jax.block_until_ready(_)
            end_time = time.perf_counter()
            latencies.append((end_time - start_time) * 1000)
            
        subsequent_call_ms = np.mean(latencies)
        
        # Get memory usage
        current, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        memory_mb = peak / (1024 * 1024)
        
        tokens_per_sec = seq_len / (subsequent_call_ms / 1000.0)
        
        print(f"{seq_len:<10} | {first_call_ms:<17.2f} | {subsequent_call_ms:<17.2f} | {tokens_per_sec:<15.2f} | {memory_mb:<15.2f}")
        
        results[str(seq_len)] = {
            "first_call_ms": first_call_ms,
            "subsequent_call_ms": subsequent_call_ms,
            "tokens_per_sec": tokens_per_sec,
            "memory_mb": memory_mb
        }
        
    with open("benchmark_jax.json", "w") as f:
        json.dump(results, f, indent=4)
    print("Saved results to benchmark_jax.json")

if __name__ == "__main__":
    benchmark_jax()
