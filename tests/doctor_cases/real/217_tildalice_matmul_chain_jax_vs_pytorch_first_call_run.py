# source: https://tildalice.io/?p=869
# explain: matmul_chain
# dynamic: LB202
# first-sight: eec90bb 2026-12-03 explain: found LB202; missed none; false none
# Runnable copy of 217_tildalice_matmul_chain_jax_vs_pytorch_first_call.py for levelbench.explain: the post's
# jitted JAX `matmul_chain` (its 100-step Python loop kept) on a 64x64 normal matrix instead of 512x512.

import jax
import jax.numpy as jnp


@jax.jit
def matmul_chain(x):
    for _ in range(100):
        x = x @ x
    return x


def matmul_chain_args():
    return (jax.random.normal(jax.random.PRNGKey(0), (64, 64)),)
