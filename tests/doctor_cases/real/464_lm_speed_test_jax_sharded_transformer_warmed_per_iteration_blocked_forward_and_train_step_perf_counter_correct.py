# source: https://github.com/rka97/lm_speed_test/blob/2297e42f96f92543cee7e2086e9ebe2f410c8b0c/benchmark_jax.py
# title: lm_speed_test's `benchmark_jax.py`, the JAX half of a JAX-against-PyTorch language-model speed test: a data-parallel Flax transformer's jitted forward pass and training step, each warmed `num_warmup` times and then timed call by call with `perf_counter`, every call waited for, reported as mean, min and max and written to CSV
# established-by: maintainer rka97 (the repository's author; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. `forward_fn` and `train_step_fn` are jitted once each by the factories `create_sharded_forward` and `create_sharded_train_step`, which return them (no LB111), and are called `num_warmup` times with a wait before any timing (no LB103). Each timed iteration reads `perf_counter` around one call followed by `block_until_ready()` on its output (`logits`, or `loss`, an output of the same train-step program as the new state), so every sample waits for its work (no LB102), and the figures are the mean, minimum and maximum of `num_iterations` samples (no LB104, no LB105). The batch is made on the device and sharded with `device_put` before the timing (no LB115). A correct doctor stays quiet. Code: the file at commit 2297e42, trimmed: the model definition (`ModelConfig`, `Mlp`, `init_rope`, `apply_rope`, `CausalAttn`, `TBlock`, `TransformerDo`, used by name below), the configuration and device printouts and half the CSV fields are left out; the rest unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: e4a92af 2026-12-06 py: found none; missed none; false LB114:214 | notebook: found none; missed none; false LB114:214

"""
JAX Transformer Benchmark Script
Times forward and backward passes and writes results to CSV.

Uses JAX's sharding API for data parallelism across multiple devices,
comparable to PyTorch's DistributedDataParallel (DDP).
"""

import dataclasses
import time
import csv
import argparse
from functools import partial

import jax
import jax.numpy as jnp
from jax.sharding import Mesh, PartitionSpec as P, NamedSharding
from jax.experimental import mesh_utils
from flax import linen as nn
from flax.training import train_state
import optax


# ============== Benchmark Functions ==============

def create_mesh(num_devices=None):
    """Create a device mesh for data parallelism."""
    devices = jax.devices()
    if num_devices is not None:
        devices = devices[:num_devices]
    
    # Create 1D mesh for data parallelism (batch dimension)
    mesh = Mesh(mesh_utils.create_device_mesh((len(devices),), devices), ('data',))
    return mesh


def create_train_state(rng, model, learning_rate, input_shape, mesh):
    """Creates initial TrainState with sharded parameters."""
    dummy_input = jnp.ones(input_shape, dtype=jnp.int32)
    params = model.init(rng, dummy_input)
    tx = optax.adamw(learning_rate)
    state = train_state.TrainState.create(
        apply_fn=model.apply,
        params=params,
        tx=tx,
    )
    
    # Replicate params and optimizer state across all devices
    # (data parallelism = replicated params, sharded data)
    replicate_sharding = NamedSharding(mesh, P())  # No partitioning = replicate
    state = jax.tree_util.tree_map(
        lambda x: jax.device_put(x, replicate_sharding),
        state
    )
    return state


def compute_loss(params, apply_fn, batch, targets):
    """Compute cross-entropy loss."""
    logits = apply_fn(params, batch)
    # Shift logits and targets for next-token prediction
    logits = logits[:, :-1, :]
    targets = targets[:, 1:]
    # Flatten for cross-entropy
    logits_flat = logits.reshape(-1, logits.shape[-1])
    targets_flat = targets.reshape(-1)
    loss = optax.softmax_cross_entropy_with_integer_labels(logits_flat, targets_flat)
    return jnp.mean(loss)


def create_sharded_train_step(mesh, apply_fn):
    """Create a sharded training step function."""
    # Data is sharded along batch dimension, params are replicated
    data_sharding = NamedSharding(mesh, P('data'))  # Shard batch dim
    replicate_sharding = NamedSharding(mesh, P())   # Replicate
    
    # Alternative without pmean - using automatic gradient aggregation
    @partial(jax.jit, in_shardings=(replicate_sharding, data_sharding),
             out_shardings=(replicate_sharding, replicate_sharding))
    def train_step(state, batch):
        """Training step - gradients auto-averaged by sharding."""
        targets = batch
        
        def loss_fn(params):
            return compute_loss(params, apply_fn, batch, targets)
        
        loss, grads = jax.value_and_grad(loss_fn)(state.params)
        state = state.apply_gradients(grads=grads)
        return state, loss
    
    return train_step


def create_sharded_forward(mesh, apply_fn):
    """Create a sharded forward pass function."""
    data_sharding = NamedSharding(mesh, P('data'))
    replicate_sharding = NamedSharding(mesh, P())
    output_sharding = NamedSharding(mesh, P('data'))  # Output also sharded
    
    @partial(jax.jit, in_shardings=(replicate_sharding, data_sharding),
             out_shardings=output_sharding)
    def forward_only(params, batch):
        """Forward pass only."""
        return apply_fn(params, batch)
    
    return forward_only


def shard_batch(batch, mesh):
    """Shard a batch across the data dimension."""
    data_sharding = NamedSharding(mesh, P('data'))
    return jax.device_put(batch, data_sharding)


def run_benchmark(cfg, batch_size, num_warmup, num_iterations, output_file, num_devices=None):
    """Run the JAX benchmark and save results."""
    print(f"\n{'='*60}")
    print("JAX Transformer Benchmark (Data Parallel)")
    print(f"{'='*60}")
    
    # Create mesh for data parallelism
    all_devices = jax.devices()
    if num_devices is not None:
        devices_to_use = all_devices[:num_devices]
    else:
        devices_to_use = all_devices
    
    mesh = create_mesh(len(devices_to_use))
    num_devices_used = len(devices_to_use)
    
    # Total batch size = per-device batch size * num devices
    total_batch_size = batch_size * num_devices_used
    
    # Initialize model
    model = TransformerDo(cfg)
    rng = jax.random.PRNGKey(42)
    
    # Create train state with sharding
    input_shape = (total_batch_size, cfg.seq_len)
    with mesh:
        state = create_train_state(rng, model, learning_rate=1e-4, input_shape=input_shape, mesh=mesh)
    
    # Count parameters
    param_count = sum(x.size for x in jax.tree_util.tree_leaves(state.params))
    print(f"  Total parameters: {param_count:,}")
    
    # Generate synthetic data and shard it
    data_rng = jax.random.PRNGKey(123)
    batch = jax.random.randint(data_rng, shape=input_shape, minval=0, maxval=cfg.vocab_size, dtype=jnp.int32)
    batch = shard_batch(batch, mesh)
    
    print(f"\nData sharding: {batch.sharding}")
    
    # Create sharded functions
    with mesh:
        forward_fn = create_sharded_forward(mesh, model.apply)
        train_step_fn = create_sharded_train_step(mesh, model.apply)
    
    # ============== Forward-only benchmark ==============
    print(f"\n--- Forward-only Benchmark ---")
    
    # Warmup
    print(f"Running {num_warmup} warmup iterations...")
    with mesh:
        for _ in range(num_warmup):
            logits = forward_fn(state.params, batch)
            logits.block_until_ready()
    
    # Benchmark
    print(f"Running {num_iterations} benchmark iterations...")
    forward_times = []
    with mesh:
        for i in range(num_iterations):
            start = time.perf_counter()
            logits = forward_fn(state.params, batch)
            logits.block_until_ready()
            end = time.perf_counter()
            forward_times.append(end - start)
    
    avg_forward_time = sum(forward_times) / len(forward_times)
    min_forward_time = min(forward_times)
    max_forward_time = max(forward_times)
    print(f"  Avg forward time: {avg_forward_time*1000:.2f} ms")
    print(f"  Min forward time: {min_forward_time*1000:.2f} ms")
    print(f"  Max forward time: {max_forward_time*1000:.2f} ms")
    
    # ============== Forward + Backward benchmark ==============
    print(f"\n--- Forward + Backward Benchmark ---")
    
    # Warmup
    print(f"Running {num_warmup} warmup iterations...")
    with mesh:
        for _ in range(num_warmup):
            state, loss = train_step_fn(state, batch)
            loss.block_until_ready()
    
    # Benchmark
    print(f"Running {num_iterations} benchmark iterations...")
    fwd_bwd_times = []
    with mesh:
        for i in range(num_iterations):
            start = time.perf_counter()
            state, loss = train_step_fn(state, batch)
            loss.block_until_ready()
            end = time.perf_counter()
            fwd_bwd_times.append(end - start)
    
    avg_fwd_bwd_time = sum(fwd_bwd_times) / len(fwd_bwd_times)
    min_fwd_bwd_time = min(fwd_bwd_times)
    max_fwd_bwd_time = max(fwd_bwd_times)
    print(f"  Avg forward+backward time: {avg_fwd_bwd_time*1000:.2f} ms")
    print(f"  Min forward+backward time: {min_fwd_bwd_time*1000:.2f} ms")
    print(f"  Max forward+backward time: {max_fwd_bwd_time*1000:.2f} ms")
    
    # Calculate throughput (total tokens across all devices)
    tokens_per_batch = total_batch_size * cfg.seq_len
    forward_throughput = tokens_per_batch / avg_forward_time
    fwd_bwd_throughput = tokens_per_batch / avg_fwd_bwd_time
    print(f"\n  Forward throughput: {forward_throughput:,.0f} tokens/sec")
    print(f"  Forward+Backward throughput: {fwd_bwd_throughput:,.0f} tokens/sec")
    
    # Save results to CSV
    results = {
        'framework': 'JAX_DataParallel',
        'batch_size': total_batch_size,
        'num_devices': num_devices_used,
        'avg_forward_time_ms': avg_forward_time * 1000,
        'avg_fwd_bwd_time_ms': avg_fwd_bwd_time * 1000,
        'forward_throughput_tokens_sec': forward_throughput,
        'fwd_bwd_throughput_tokens_sec': fwd_bwd_throughput,
    }
    
    with open(output_file, 'w', newline='') as f:
        writer = csv.DictWriter(f, fieldnames=results.keys())
        writer.writeheader()
        writer.writerow(results)
    
    print(f"\nResults saved to: {output_file}")
    return results


def main():
    parser = argparse.ArgumentParser(description='JAX Transformer Benchmark (Data Parallel)')
    parser.add_argument('--model_dim', type=int, default=512, help='Model dimension')
    parser.add_argument('--num_heads', type=int, default=8, help='Number of attention heads')
    parser.add_argument('--seq_len', type=int, default=512, help='Sequence length')
    parser.add_argument('--num_layers', type=int, default=6, help='Number of transformer layers')
    parser.add_argument('--vocab_size', type=int, default=32000, help='Vocabulary size')
    parser.add_argument('--batch_size', type=int, default=8, help='Batch size per device')
    parser.add_argument('--num_warmup', type=int, default=5, help='Number of warmup iterations')
    parser.add_argument('--num_iterations', type=int, default=20, help='Number of benchmark iterations')
    parser.add_argument('--num_devices', type=int, default=None, help='Number of devices to use (default: all available)')
    parser.add_argument('--output', type=str, default='jax_benchmark_results.csv', help='Output CSV file')
    
    args = parser.parse_args()
    
    # Create model config
    cfg = ModelConfig(
        model_dim=args.model_dim,
        num_heads=args.num_heads,
        seq_len=args.seq_len,
        num_layers=args.num_layers,
        vocab_size=args.vocab_size,
        expanded_model_dim=4 * args.model_dim,
    )
    
    run_benchmark(
        cfg=cfg,
        batch_size=args.batch_size,
        num_warmup=args.num_warmup,
        num_iterations=args.num_iterations,
        output_file=args.output,
        num_devices=args.num_devices,
    )


if __name__ == '__main__':
    main()
