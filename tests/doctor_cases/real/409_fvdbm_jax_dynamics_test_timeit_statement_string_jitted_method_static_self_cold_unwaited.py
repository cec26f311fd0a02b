# source: https://github.com/MADALERAU/FVDBM-JAX/blob/b399659317a0911c220cc6150716787a0c00b4eb/tests/fvdbmDynamics_test.py
# title: FVDBM-JAX's `tests/fvdbmDynamics_test.py`: the D2Q9 lattice equilibrium `calc_eq`, a method jitted with `self` static in the same commit's `src/dynamics.py`, timed by `timeit.timeit` of a statement string with a setup string that builds a fresh `D2Q9()`, `number=1000`, the total printed
# established-by: maintainer MADALERAU (the repository author's timing test; no issue discusses it)
# cause: At this commit `D2Q9.calc_eq` is decorated `@partial(jax.jit, static_argnums=0)` (`src/dynamics.py` at b399659). What a correct doctor reports, by the catalogue and the corpus's readings: the setup string builds a new `D2Q9()` instance, and with `self` static the first `calc_eq` call on it traces and compiles inside the 1,000 timed calls, with no warm-up (LB103, 392's reading of jitted calls first made inside `timeit`); no timed call's result is waited for, so the printed total can stop when the last call is dispatched (LB102). Both belong at the `timeit.timeit` call, whose statement is the string `'tempD2Q9.calc_eq(rho,vel)'`. The printed figure is the total of 1,000 calls under `timeit`'s `perf_counter` (no LB104, no LB105). The module-level `tempD2Q9`, `rho` and `vel` before the call are not used by the timing (the statement runs in the setup's namespace). Code: the file as stored at commit b399659, unchanged.
# static: LB103, LB102
# dynamic: n/a
# inferred: LB103 (the jitted method compiles on its first call inside the timed statement; not discussed), LB102 (the timed calls' results are never waited for; not discussed)
# lines: LB103:28/36, LB102:28/36
# first-sight: 0ba6573 2026-12-06 py: found none; missed LB102:28/36, LB103:28/36; false none | notebook: found none; missed LB102:28/36, LB103:28/36; false none

import jax
import timeit

import sys
sys.path.append(".")
from src.dynamics import D2Q9

key = jax.random.key(1)

tempD2Q9 = D2Q9()


x = tempD2Q9.ones_pdf()
rho = jax.random.uniform(key,(1,))
vel = jax.random.uniform(key,(2,))


print(timeit.timeit(setup='''
from src.dynamics import D2Q9
import jax
key = jax.random.key(1)
tempD2Q9 = D2Q9()
x = tempD2Q9.ones_pdf()
rho = jax.random.uniform(key,(1,))
vel = jax.random.uniform(key,(2,))''',
stmt='tempD2Q9.calc_eq(rho,vel)',number=1000))
