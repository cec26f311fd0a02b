# source: https://github.com/AmedeoBiolatti/numbax/blob/04aba348063f82639a33b7d80c92591d5d2abf07/examples/minimal_example.py
# title: numbax's `examples/minimal_example.py`, the 'Mini-benchmark' of its README: one function run as eager JAX, `jax.jit`, a NumPy translation of its jaxpr and two Numba builds, each timed once cold ('Compile + first run') and then over 100 calls ('100 successive runs') between `perf_counter` reads
# established-by: maintainer AmedeoBiolatti (the repository's author, whose README table reports this script's figures; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue. The loop over backends times one first call (t0..t1) and then 100 calls (t1..t2) of the same function; the README prints the first as 'Compile + first run', so it is a compile timed on purpose, followed at once by the warm figure (no LB103, no LB104, 270's and 408's reading). Neither timing waits for the JAX rows: `f_(np.int32(1))` returns a JAX array that is discarded, and for `fn` (eager) and `jax.jit(fn)` the clock is read as soon as the last call is dispatched (LB102 at both timed calls, as 270 labels its compile-plus-run and run figures; the NumPy and Numba rows are synchronous). `fn` holds a Python `for _ in range(100)` of `cos`/`sin`, which `jax.jit(fn)` unrolls into 200 operations in the compiled program (LB106 at the `for`, 247's reading). The eager 'jax' row is the README's own baseline beside 'jax-jit', not LB114 (242, 248, 279). The input is one NumPy `int32` scalar handed to every backend, which the Numba rows need; four bytes, not labelled LB115. The clock is `perf_counter` (no LB105). Code: the file at commit 04aba34, unchanged.
# static: LB102, LB106
# dynamic: n/a
# inferred: LB102 (the JAX results are discarded and the clock read with nothing waited for; the catalogue's reading, no thread discusses it), LB106 (the `for _ in range(100)` inside `fn`, which `jax.jit(fn)` traces; the catalogue's reading)
# lines: LB102:49/52, LB106:26
# first-sight: e4a92af 2026-12-06 py: found LB106:26 LB102:49 LB102:52; missed none; false LB104:49 LB115:49 LB115:52 | notebook: found LB106:26 LB102:49 LB102:52; missed none; false LB104:49 LB115:49 LB115:52

import jax
import numba
import time
import numpy as np

from numbax import numpize


def fn(x):
    def step(carry, x):
        y = carry + x
        return carry, y

    stacked, x = jax.lax.scan(step, x, xs=jax.numpy.arange(100))

    for _ in range(100):
        x = jax.numpy.cos(x)
        x = jax.numpy.sin(x)

    x = x * 2 + 1
    return x


jaxpr = jax.make_jaxpr(fn)(1)

fn_numpized = numpize.numpize_jaxpr(jaxpr)

fn_numba = numba.njit(fn_numpized, parallel=False, fastmath=False)
fn_numba_fast = numba.njit(fn_numpized, parallel=False, fastmath=True)

for (f_, f_name) in [
    (fn, 'jax'),
    (jax.jit(fn), 'jax-jit'),
    (fn_numpized, 'numpy'),
    (fn_numba, 'numba'),
    (fn_numba_fast, 'numba-fast')
]:
    t0 = time.perf_counter()
    f_(np.int32(1))
    t1 = time.perf_counter()
    for _ in range(100):
        f_(np.int32(1))
    t2 = time.perf_counter()

    print("%10s\t%.6f\t%.6f" % (f_name, t2 - t1, t1 - t0))
    time.sleep(0.1)

fn(np.int32(1))
fn_numpized(np.int32(1))
fn_numba(np.int32(1))
