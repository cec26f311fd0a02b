# source: https://github.com/guitargeek/differentiable-inference-examples/blob/0c3136d573c2771b67df7914cad7b379e46308cf/benchmark_jax.py
# title: differentiable-inference-examples `benchmark_jax.py`: a jitted five-layer MLP forward and its input gradient, each warmed and waited for, timed through one `benchmark` helper with a `perf_counter` pair around `n_runs` waited calls, called once with 1,000 runs of batch 1 and once with one run of batch 1,000
# established-by: maintainer guitargeek (the repository's JAX side of a JAX / PyTorch / SOFIE-Clad inference and gradient comparison)
# cause: The helper itself is sound in form: a fresh `jax.jit` per configuration is called once and waited for before its clock starts, and every timed call ends in `.block_until_ready()`. But `main` calls it the second time with `n_runs=1`, so the 'batched' forward and gradient figures, and the 'Grad / Forward ratio' printed from them, are each one sample of one call (LB104, at the first statement inside each clock pair, the `for _ in range(n_runs):` lines; case 284's reading of a helper that times one call per figure, here through its argument rather than `number=1`). The first configuration averages 1,000 waited calls per figure, which is no single sample. The `jax.jit(grad(lambda ...))` built inside the helper is warmed before it is timed in the same call (case 261's reading: no LB111), and the Python loop in `forward` runs once at trace time over five layers (a fixed depth, not data: no LB106). The author's later form of the script, `sofie_pytorch_jax_comparison/benchmark_jax.py` (case 349), times 100 calls per batched loop and reports the median of five loops, the fix for this. No issue discusses the script; the corpus's notes on cases 319-326 left it out as 'kept for a batch that needs faults'. Code: the file as stored at commit 0c3136d, unchanged.
# static: LB104
# dynamic: n/a
# inferred: LB104 (one waited call per figure in the second configuration; not discussed, changed by the author's later version, case 349)
# lines: LB104:84/102
# first-sight: f5b8aeb 2026-12-06 py: found none; missed LB104:84/102; false none | notebook: found none; missed LB104:84/102; false none

import time
import jax
import jax.numpy as jnp
from jax import random, grad, vmap
from functools import partial

# -----------------------------
# Config
# -----------------------------
INPUT_DIM = 20
HIDDEN_LAYERS = 5
HIDDEN_DIM = 128
N_SAMPLES = 50000
BATCH_SIZE = 128
DEVICE = "cpu"  # JAX will automatically select cpu/gpu
N_RUNS = 1000

# -----------------------------
# Model definition (pure functions)
# -----------------------------
def init_layer_params(rng, in_dim, out_dim):
    k1, k2 = random.split(rng)
    w = random.normal(k1, (in_dim, out_dim)) * jnp.sqrt(2.0 / in_dim)
    b = jnp.zeros((out_dim,))
    return {'w': w, 'b': b}

def init_model(rng, input_dim, hidden_dim, n_layers):
    params = []
    in_dim = input_dim
    for _ in range(n_layers):
        rng, layer_rng = random.split(rng)
        params.append(init_layer_params(layer_rng, in_dim, hidden_dim))
        in_dim = hidden_dim
    # final layer
    rng, layer_rng = random.split(rng)
    params.append(init_layer_params(layer_rng, in_dim, 1))
    return params

def forward(params, x):
    for layer in params[:-1]:
        x = jnp.dot(x, layer['w']) + layer['b']
        x = jax.nn.relu(x)
    # final layer
    layer = params[-1]
    x = jnp.dot(x, layer['w']) + layer['b']
    return x

# -----------------------------
# Synthetic dataset
# -----------------------------
def generate_data(rng, n_samples, input_dim):
    X = random.normal(rng, (n_samples, input_dim))
    y = jnp.sum(X**2, axis=1, keepdims=True) + 0.1 * random.normal(rng, (n_samples,1))
    return X, y

# -----------------------------
# Benchmarking
# -----------------------------
def benchmark(params, input_dim, batch_size, n_runs):
    rng = random.PRNGKey(42)
    x = random.normal(rng, (batch_size, input_dim))

    n_samples = batch_size * n_runs

    # -----------------
    # Forward (jit)
    # -----------------
    jit_forward = jax.jit(forward)

    # Warmup
    _ = jit_forward(params, x).block_until_ready()

    start = time.perf_counter()
    for _ in range(n_runs):
        _ = jit_forward(params, x).block_until_ready()
        # _ = forward(params, x).block_until_ready()
    end = time.perf_counter()
    inference_time = (end - start) / n_samples
    print(f"Forward per sample: {inference_time*1e6:.2f} µs")

    # -----------------
    # Gradient w.r.t input
    # -----------------
    grad_forward = jax.jit(grad(lambda p, x: jnp.sum(forward(p, x)), argnums=1))

    x_grad = random.normal(rng, (batch_size, input_dim))

    # Warmup
    _ = grad_forward(params, x_grad).block_until_ready()

    start = time.perf_counter()
    for _ in range(n_runs):
        _ = grad_forward(params, x_grad).block_until_ready()
    end = time.perf_counter()
    grad_time = (end - start) / n_samples
    print(f"Grad per sample: {grad_time*1e6:.2f} µs")
    print(f"Grad / Forward ratio: {grad_time / inference_time:.2f}")

# -----------------------------
# Main
# -----------------------------
def main():
    rng = random.PRNGKey(0)
    params = init_model(rng, INPUT_DIM, HIDDEN_DIM, HIDDEN_LAYERS)

    X, y = generate_data(rng, N_SAMPLES, INPUT_DIM)

    print("\n--- JAX Benchmark Results ---")
    benchmark(params, INPUT_DIM, 1, 1000)
    print("\n--- JAX Benchmark Results (batched) ---")
    benchmark(params, INPUT_DIM, 1000, 1)

if __name__ == "__main__":
    main()
