# source: https://github.com/QuantEcon/lecture-python-programming/pull/442
# title: FIX: jax_intro timeout: use lax.fori_loop instead of Python for loop
# established-by: maintainer mmcky
# cause: JAX unrolls the Python for loop over the n time steps when it traces the jitted function, and with 10,000,000-element arrays per step the compilation ran past the 600 s cell timeout of the lecture build; jax.lax.fori_loop compiles the loop body once. Code: the exercise solution cells of lectures/jax_intro.md before the fix.
# static: LB106
# dynamic: LB202
# inferred: none
# lines: LB106:30
# first-sight: 43b52af 2026-12-02 py: found LB106:30; missed none; false none | notebook: found LB106:30; missed none; false none

M = 10_000_000

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
