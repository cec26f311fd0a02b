# source: https://github.com/jhtschultz/openspiel-jax-games/blob/aa35590f8481ebd18bf17a9c36ae6a1093b4d808/benchmark_jax.py
# title: openspiel-jax-games' `benchmark_jax.py`: a jitted, vmapped gin rummy simple-bot rollout (`run_batch`, a `fori_loop` of 200 steps over 10,000 games) compiled and checked first, then five batches timed in one `time.time()` interval, the last batch's result waited before the end read, and reported as games per second against OpenSpiel's C++ bot
# established-by: maintainer jhtschultz (the repository's author; the 'Compiling...' / 'Compiled!' lines say the first call is the warm-up; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. `run_batch` is compiled by the waited call before the clock starts (no LB103); the rollout loop is a `lax.fori_loop` inside the jit (no LB106, no LB114). The timed loop dispatches five batches and waits on the last batch's `done` with `jax.block_until_ready` before the end read; the device runs the batches in order, so the wait covers all five (no LB102; the catalogue's own 'good' form for a loop). The figure is a rate over five calls in one interval, not one call (no LB104). The interval starts with `time.time()` (LB105, at the start read). The `.item()` reads of the warm-up batch come before the clock (no LB115). `gin_rummy_jax` is the repository's game module, not shown. Code: the file at commit aa35590, trimmed: the two verification functions `verify_scoring` and `verify_vs_cpp_jax` (games played one by one against the C++ OpenSpiel game for correctness, nothing timed) are left out; the `__main__` block still names them, as posted.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time()` start read of the rollout interval); the catalogue's reading, not discussed
# lines: LB105:55
# first-sight: 6043315 2026-12-06 py: found LB105:55; missed none; false none | notebook: found LB105:55; missed none; false none

"""Benchmark merged gin_rummy_jax.py with pyspiel wrapper."""
import os
os.environ["JAX_COMPILATION_CACHE_DIR"] = "/tmp/jax_cache"
import time
import jax
import jax.numpy as jnp
import numpy as np

# Import to register the game
import gin_rummy_jax as gin

def benchmark_simple_bot_jax(batch_size=10000, n_steps=200, n_batches=5):
    """Benchmark simple bot using merged gin_rummy_jax.py."""
    print(f"\n=== gin_rummy_jax.py Simple Bot Benchmark (batch={batch_size}) ===")
    print(f"Device: {jax.devices()[0]}")

    @jax.jit
    def run_batch(key):
        keys = jax.random.split(key, batch_size)
        states = jax.vmap(lambda _: gin.init_state())(keys)

        def step_fn(i, carry):
            states, keys = carry
            def single(state, key):
                a = gin.simple_bot_action_opt(state)
                ns = jax.lax.cond(state['done'], lambda: state, lambda: gin.step(state, a))
                return ns, key
            return jax.vmap(single)(states, keys)

        final_states, _ = jax.lax.fori_loop(0, n_steps, step_fn, (states, keys))
        return final_states['done'], final_states['p0_score']

    print("Compiling...")
    done, scores = run_batch(jax.random.PRNGKey(0))
    jax.block_until_ready(done)
    print("Compiled!")

    # Check some games completed
    n_done = jnp.sum(done).item()
    print(f"Sample batch: {n_done}/{batch_size} games completed")
    if n_done > 0:
        avg_score = jnp.sum(jnp.where(done, scores, 0)).item() / n_done
        print(f"Average P0 score (completed games): {avg_score:.1f}")

    start = time.time()
    for i in range(n_batches):
        done, _ = run_batch(jax.random.PRNGKey(i + 100))
    jax.block_until_ready(done)
    elapsed = time.time() - start

    total = n_batches * batch_size
    rate = total / elapsed
    print(f"{total:,} games in {elapsed:.2f}s = {rate:,.0f} games/sec")
    print(f"Speedup vs C++ SimpleGinRummyBot (153 g/s): {rate/153:.1f}x")
    return rate


if __name__ == "__main__":
    import argparse
    parser = argparse.ArgumentParser()
    parser.add_argument("--batch", type=int, default=10000)
    parser.add_argument("--verify", action="store_true")
    parser.add_argument("--all", action="store_true")
    args = parser.parse_args()

    if args.all:
        verify_scoring(100)
        benchmark_simple_bot_jax(batch_size=10000)
        benchmark_simple_bot_jax(batch_size=20000)
        verify_vs_cpp_jax()
    else:
        benchmark_simple_bot_jax(batch_size=args.batch)
        if args.verify:
            verify_vs_cpp_jax()
