# case: real/058_call_price_loop_unrolled.py
# form: ipython
# causes: none
# changed: imports of jax, jax.numpy as jnp and numpy as np added (the lecture imports them earlier); M = 10_000 instead of 10_000_000
# note: not a *_correct case: the thread's cause is the compile time of the unrolled loop (LB106), paid in the untimed first call; the %%time cell is warm and blocked, so a correct runtime doctor reports no timing cause

import jax
import jax.numpy as jnp
import numpy as np

M = 10_000

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
# %%
compute_call_price_jax()
# %%
%%time 
compute_call_price_jax().block_until_ready()
