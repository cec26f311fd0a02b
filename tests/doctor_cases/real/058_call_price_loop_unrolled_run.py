# source: https://github.com/QuantEcon/lecture-python-programming/pull/442
# explain: compute_call_price_jax
# dynamic: LB202
# first-sight: 43b52af 2026-12-02 explain: found LB202; missed none; false none
# Runnable copy of 058_call_price_loop_unrolled.py for levelbench.explain: the posted function with
# M = 1,000 paths instead of 10,000,000 and its imports from the lecture's earlier cells.

import jax
import jax.numpy as jnp
import numpy as np

M = 1_000

n, β, K = 20, 0.99, 100
μ, ρ, ν, S0, h0 = 0.0001, 0.1, 0.001, 10, 0

@jax.jit
def compute_call_price_jax(β=β,
                           μ=μ,
                           S0=S0,
                           h0=h0,
                           K=K,
                           n=n,
                           ρ=ρ,
                           ν=ν,
                           M=M,
                           key=jax.random.PRNGKey(1)):

    s = jnp.full(M, np.log(S0))
    h = jnp.full(M, h0)
    for t in range(n):
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + μ + jnp.exp(h) * Z[0, :]
        h = ρ * h + ν * Z[1, :]
    expectation = jnp.mean(jnp.maximum(jnp.exp(s) - K, 0))

    return β**n * expectation


def compute_call_price_jax_args():
    return ()
