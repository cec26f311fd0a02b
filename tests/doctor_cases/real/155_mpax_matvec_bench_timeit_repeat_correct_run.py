# source: https://github.com/ZedongPeng/MPAX/blob/main/benchmarks/matvec_bench.py
# explain: bcoo_matvec, csr_matvec
# dynamic: none
# first-sight: 58b08e8 2026-12-03 explain: found none; missed none; false none
# Runnable copy of 155_mpax_matvec_bench_timeit_repeat_correct.py for levelbench.explain: the script's
# jitted BCOO and CSR products as `matvec_fns` builds them, on a 400 x 300 random sparse matrix (SciPy)
# in place of the Gurobi benchmark instances, which are not available here.

import jax
import jax.numpy as jnp
import scipy.sparse
from jax.experimental import sparse

_A = scipy.sparse.random(400, 300, density=0.02, format="csr", random_state=0)

_bcoo = sparse.BCOO.from_scipy_sparse(_A)
_csr = sparse.CSR((jnp.array(_A.data), jnp.array(_A.indices), jnp.array(_A.indptr)), shape=_A.shape)

bcoo_matvec = jax.jit(lambda v: _bcoo @ v)
csr_matvec = jax.jit(lambda v: sparse.csr_matvec(_csr, v))


def bcoo_matvec_args():
    return (jnp.ones(300),)


def csr_matvec_args():
    return (jnp.ones(300),)
