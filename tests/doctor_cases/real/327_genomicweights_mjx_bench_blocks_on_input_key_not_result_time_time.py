# source: https://github.com/guruswami-ai/GenomicWeightsThesis/blob/c857d13cfe6b8f5a93af7bebed10a0572a118a91/genomic_evo/bench_mjx.py
# title: GenomicWeightsThesis `genomic_evo/bench_mjx.py`: an MJX step's ahead-of-time compile timed once as 'MJX Compile Time', then 100 calls of the compiled step between two `time.time()` reads, each followed by `jax.block_until_ready(rng)`, the input key, not the step's result
# established-by: maintainer guruswami-ai (the repository's MJX throughput benchmark script)
# cause: The throughput loop means to wait for each step ('# Block to ensure execution finished') but waits on `rng`, the PRNG key it passes in, which is ready before the loop starts; the result of `jit_mjx_step(None, rng)` is dropped and never waited for, so the clock stops when the 100th call has been dispatched and 'MJX Throughput' counts dispatches, not simulated steps (LB102, at the timed call). Both intervals are read with `time.time()`, the wall clock (LB105, at the two start reads; cases 202, 325). The compile figure is `jax.jit(mjx_step).lower(None, rng).compile()` timed once on purpose and printed as the compile time (cases 200 and 202: no LB104 or LB103 there), and the untimed warm-up call before the loop is the run-once the comment describes; the 100-call loop between two reads is one averaged figure of a loop, not one call (case 325: no LB104). No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit c857d13, unchanged.
# static: LB102, LB105
# dynamic: n/a
# inferred: LB102 (the loop waits on its input key, not on the step's result; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:34, LB105:22/31
# first-sight: de40b29 2026-12-06 py: found LB105:31; missed LB102:34; false none | notebook: found LB105:31; missed LB102:34; false none

import time
import jax
import jax.numpy as jnp
from fitness_env_mjx import mjx_step, mjx_model, mj_model, mujoco, mjx
from fitness_env import brax_ant_fitness # Legacy

def bench_mjx():
    print("🚀 Benchmarking MJX...")
    rng = jax.random.PRNGKey(0)
    
    # 1. Compilation Time
    start_time = time.time()
    jit_mjx_step = jax.jit(mjx_step).lower(None, rng).compile()
    compile_time = time.time() - start_time
    print(f"MJX Compile Time: {compile_time:.4f} s")
    
    # 2. Execution Time
    # Run once to ensure any runtime overhead is cleared
    jit_mjx_step(None, rng) 
    
    start_time = time.time()
    for _ in range(100):
        # We pass None as phenotype_net for this pure physics bench
        jit_mjx_step(None, rng)
        # Block to ensure execution finished
        jax.block_until_ready(rng) 
    
    duration = time.time() - start_time
    sps = (100 * 200) / duration # 100 calls * 200 steps per call
    print(f"MJX Throughput: {sps:.2f} steps/sec")

def bench_brax(phenotype_net_mock):
    print("\n🐢 Benchmarking Brax (Legacy)...")
    # Note: braiding into existing fitness_env is harder because it expects a net
    # We will just verify import speed and maybe a specialized small JIT test
    pass

if __name__ == "__main__":
    print(f"JAX Device: {jax.devices()[0]}")
    try:
        bench_mjx()
    except Exception as e:
        print(f"MJX Bench Failed: {e}")
