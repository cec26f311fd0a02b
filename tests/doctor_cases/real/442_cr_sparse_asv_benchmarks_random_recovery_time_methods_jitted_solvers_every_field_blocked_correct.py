# source: https://github.com/carnotresearch/cr-sparse/blob/2d24e03edde09b5e82592169c911a3c91d908f25/benchmarks/random_recovery_M=1000_N=200_K=20.py
# title: CR-Sparse's airspeed velocity benchmark `benchmarks/random_recovery_M=1000_N=200_K=20.py`: `time_omp`, `time_cosamp`, `time_sp`, `time_iht`, `time_niht`, `time_htp` and `time_nhtp` each run one jitted sparse-recovery solver on a module-level Gaussian 200x1000 problem through `wrap_solve`, which waits on every field of the solution
# established-by: maintainer carnotresearch (the CR-Sparse author's asv suite; no issue discusses its timing)
# cause: Correct code. asv calls each `time_*` function repeatedly after its warm-up time and reports robust statistics with its own `timeit.default_timer` (a `perf_counter`), so the first call of each jitted solver, its trace and compile, is absorbed by asv's warm-up and the figure is many samples (no LB103, no LB104, no LB105; 354's reading of an asv `time_*` method). `wrap_solve` waits for the solution's four arrays with `.block_until_ready()` before the call returns, so no LB102. The solvers are `jax.jit` functions of the library (`matrix_solve_jit`); the `partial(...)` wrappers that fix `normalized` are built once, at import, and wrap the same jitted function on every call, so no LB111, and the problem data (`Phi`, `y`) are JAX arrays made once at module level, outside the timing (no LB115). A correct doctor stays quiet. Code: the file as stored at commit 2d24e03, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: fb4008d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
from jax import random

import cr.sparse as crs
from cr.sparse import pursuit
import cr.sparse.data as crdata
import cr.sparse.dict as crdict
from cr.sparse.ef import RecoveryPerformance

from cr.sparse.pursuit import omp
from cr.sparse.pursuit import cosamp
from cr.sparse.pursuit import sp
from cr.sparse.pursuit import iht
from cr.sparse.pursuit import htp


# Iterative Hard Thresholding
iht_solve_jit = partial(iht.matrix_solve_jit, normalized=False)
# Normalized Iterative Hard Thresholding
niht_solve_jit = partial(iht.matrix_solve_jit, normalized=True)

# Hard Thresholding Pursuit
htp_solve_jit = partial(htp.matrix_solve_jit, normalized=False)
# Normalized Hard Thresholding Pursuit
nhtp_solve_jit = partial(htp.matrix_solve_jit, normalized=True)

K = 20
M = 200
N = 1000

key = random.PRNGKey(8)
keys = random.split(key, 2)
Phi = crdict.gaussian_mtx(keys[0], M,N)
x, omega = crdata.sparse_normal_representations(keys[1], N, K, 1)

y = Phi @ x

def wrap_solve(solver):
    solution = solver(Phi, y, K)
    solution.x_I.block_until_ready()
    solution.r.block_until_ready()
    solution.I.block_until_ready()
    solution.r_norm_sqr.block_until_ready()
    return solution


def time_omp():
    wrap_solve(omp.matrix_solve_jit)


def time_cosamp():
    wrap_solve(cosamp.matrix_solve_jit)

def time_sp():
    wrap_solve(sp.matrix_solve_jit)

def time_iht():
    wrap_solve(iht_solve_jit)

def time_niht():
    wrap_solve(niht_solve_jit)

def time_htp():
    wrap_solve(htp_solve_jit)

def time_nhtp():
    wrap_solve(nhtp_solve_jit)
