# case: real/003_lu_index_update_loops.py
# form: ipython
# causes: LB103:25, LB102:25
# changed: jax.ops.index_update/index_add (removed in jax 0.3.2) -> the .at[...].set/.add spelling; n = 8 instead of 30
# note: the %time line times the first call (tracing the unrolled loops and compiling: LB103) and does not wait for the result (LB102)

import numpy as np
import jax.numpy as jnp
from jax import jit

@jit
def LU_jax(A):
    U = A
    m, n = U.shape
    L = jnp.eye(n)
    for k in range(n-1):
        for j in range(k+1,n):
            L = L.at[j,k].set(U[j,k]/U[k,k])
            U = U.at[j,k:n].add(-L[j,k]*U[k,k:n])
    return L, U

n = 8
A = np.random.rand(n,n)
A_jax = jnp.array(A)
%time L_jax, U_jax = LU_jax(A_jax)
