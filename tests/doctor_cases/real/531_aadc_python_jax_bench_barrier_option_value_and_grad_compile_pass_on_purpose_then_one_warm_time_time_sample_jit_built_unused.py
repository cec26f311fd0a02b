# source: https://github.com/matlogica/AADC-Python/blob/75594566c99265feb67a62f96f08af19d649dd37/benchmarks/jax_bench.py
# title: AADC-Python's `benchmarks/jax_bench.py` (the JAX side of MatLogica's AADC benchmark against JAX, PyTorch and others): a Monte Carlo barrier-option price and its six first-order sensitivities by `jax.value_and_grad`, a 'First pass (compilation)' and a 'Second pass' each timed once between two `time.time()` reads that also enclose the printing of the price and gradients
# established-by: maintainer matlogica (the repository's own benchmark script; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The first interval is labelled in its printout as '1st pass: RNG + evaluate + compilation', a first call timed on purpose as the compile (no LB103 and no LB104 there, the catalogue's exception and the reading of 200, 202 and 224). The second pass, 'after compilation', is one sample of one warm run (LB104 at the first statement inside its clock pair, `key, subkey = random.split(key)`). Both intervals use `time.time()` (LB105 at the two start reads). Both intervals print the price and every gradient before the end read, which reads the values back (no LB102). Not labelled: the script prints 'Running in JIT mode...' and builds `get_price_jit`, but times `get_price_and_grad`, a `value_and_grad` of the un-jitted `get_price`, so each pass runs the pricing eagerly and traces its `fori_loop` body again (a fresh lambda on every call), which the catalogue has no code for when nothing is jitted (not LB103, which is a jitted function's first call, and not LB111, which is `jax.jit` rebuilt; the `fori_loop` is no Python loop, so no LB114); the prints inside the timing are output cost the catalogue does not label. Code: the file as stored at commit 7559456, unchanged (`settings` is the benchmark's parameter module).
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (the 'Second pass' figure is one sample; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB104:102, LB105:86/101
# first-sight: cd05d1a 2026-12-07 py: found LB105:86 LB105:101 LB104:102; missed none; false LB115:88 LB115:90 LB115:91 LB115:92 LB115:93 LB115:94 LB115:95 LB115:104 LB115:106 LB115:107 LB115:108 LB115:109 LB115:110 LB115:111 | notebook: found LB105:86 LB105:101 LB104:102; missed none; false LB115:88 LB115:90 LB115:91 LB115:92 LB115:93 LB115:94 LB115:95 LB115:104 LB115:106 LB115:107 LB115:108 LB115:109 LB115:110 LB115:111

import time

import jax
import jax.numpy as jnp
from jax import random

import settings

jax.config.update('jax_platform_name', 'cpu')


def simulate_paths(sigma: jnp.ndarray, rfr: jnp.ndarray, s0: jnp.ndarray, 
                  num_paths: int, num_tsteps: int, final_time: jnp.ndarray,
                  key: random.PRNGKey) -> jnp.ndarray:
    dt = final_time/num_tsteps
    gbm = jnp.zeros((num_paths, num_tsteps))
    
    gbm = gbm.at[:, 0].set(s0)
    bm_curr = jnp.zeros(num_paths)
    
    def body_fun(i, state):
        gbm, bm_curr, key = state
        key, subkey = random.split(key)
        t = i * dt
        bm_curr = bm_curr + random.normal(subkey, (num_paths,)) * jnp.sqrt(dt)
        gbm = gbm.at[:, i].set(
            s0 * jnp.exp((rfr - 0.5*sigma**2)*t + sigma*bm_curr)
        )
        return gbm, bm_curr, key

    # Use scan for the loop since JAX doesn't support traditional loops
    gbm, _, _ = jax.lax.fori_loop(
        1, num_tsteps, 
        lambda i, state: body_fun(i, state),
        (gbm, bm_curr, key)
    )
    
    return gbm

def evaluate_payoff(paths: jnp.ndarray, barrier: jnp.ndarray, 
                   strike: jnp.ndarray) -> jnp.ndarray:
    scaling_factor = 1e+1
    barrier_distances = (paths - barrier) * scaling_factor
    survival_probs = jnp.prod((1 + jnp.tanh(barrier_distances)) / 2, axis=1)
    call_payoff = jnp.maximum(paths[:, -1] - strike, 0.)
    payoffs = survival_probs * call_payoff
    return payoffs

def get_price(spot: jnp.ndarray, strike: jnp.ndarray, rfr: jnp.ndarray, 
              vol: jnp.ndarray, barrier: jnp.ndarray, expiry: jnp.ndarray,
              num_paths: int, num_tsteps: int, key: random.PRNGKey) -> jnp.ndarray:
    paths = simulate_paths(vol, rfr, spot, num_paths, num_tsteps, expiry, key)
    payoffs = evaluate_payoff(paths, barrier, strike)
    price = jnp.mean(payoffs)
    return jnp.exp(-rfr*expiry) * price

if __name__ == '__main__':
    M = settings.NUM_TIME_STEPS
    N = settings.NUM_PATHS

    spot = jnp.array(settings.SPOT)
    strike = jnp.array(settings.STRIKE)
    rfr = jnp.array(settings.RISK_FREE_RATE)
    vol = jnp.array(settings.VOLATILITY)
    barrier = jnp.array(settings.BARRIER)
    expiry = jnp.array(settings.EXPIRY)
    key = random.PRNGKey(settings.RANDOM_SEED)

    get_price_jit = jax.jit(get_price, static_argnums=(6, 7))  # only num_paths and num_tsteps are static
    get_price_and_grad = jax.value_and_grad(get_price, argnums=(0, 1, 2, 3, 4, 5))

    print("Running in JIT mode...")
    
    # First pass (compilation)
    print("First pass (compilation)...")
    start_time = time.time()
    price, grads = get_price_and_grad(spot, strike, rfr, vol, barrier, expiry, N, M, key)
    print(f"--Price: {price}")
    print("--Calculated gradients:")
    print(f"----Grad w.r.t. spot: {grads[0]}")
    print(f"----Grad w.r.t. strike: {grads[1]}")
    print(f"----Grad w.r.t. rfr: {grads[2]}")
    print(f"----Grad w.r.t. expiry: {grads[5]}")
    print(f"----Grad w.r.t. vol: {grads[3]}")
    print(f"----Grad w.r.t. barrier: {grads[4]}")
    elapsed_time = time.time() - start_time  # JAX uses lazy evaluation for gradients
    print(f"--Total execution time (1st pass: RNG + evaluate + compilation): {elapsed_time:.4f}s")

    # Second pass (after compilation)
    print("\nSecond pass...")
    start_time = time.time()
    key, subkey = random.split(key)
    price, grads = get_price_and_grad(spot, strike, rfr, vol, barrier, expiry, N, M, subkey)
    print(f"--Price: {price}")
    print("--Calculated gradients:")
    print(f"----Grad w.r.t. spot: {grads[0]}")
    print(f"----Grad w.r.t. strike: {grads[1]}")
    print(f"----Grad w.r.t. rfr: {grads[2]}")
    print(f"----Grad w.r.t. expiry: {grads[5]}")
    print(f"----Grad w.r.t. vol: {grads[3]}") 
    print(f"----Grad w.r.t. barrier: {grads[4]}")
    elapsed_time = time.time() - start_time  # JAX uses lazy evaluation for gradients
    print(f"--Total execution time (2nd pass: RNG + evaluate): {elapsed_time:.4f}s")
