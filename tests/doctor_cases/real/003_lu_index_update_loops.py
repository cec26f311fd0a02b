# source: https://github.com/jax-ml/jax/issues/2242
# title: Slow JIT compilation when involving index_update and index_add
# established-by: maintainer shoyer
# cause: The LU factorisation's nested Python loops are unrolled under jit, so compile time grows with the matrix size (about 30 s at n=30); lax.fori_loop or lax.scan keeps the program small.
# static: LB113, LB106, LB103, LB102
# dynamic: LB201, LB202, LB270
# inferred: LB113 (jax.ops.index/index_update/index_add no longer exist in jax 0.10.2); LB102 (%time of an unblocked jitted call)
# lines: LB113:12, LB106:20/21, LB103:29, LB102:29

import numpy as np
import jax.numpy as jnp
from jax.ops import index, index_update, index_add
from jax import jit

@jit
def LU_jax(A):
    U = A
    m, n = U.shape
    L = jnp.eye(n)
    for k in range(n-1):
        for j in range(k+1,n):
            L = index_update(L, index[j,k], U[j,k]/U[k,k])
            U = index_add(U, index[j,k:n], -L[j,k]*U[k,k:n])
    return L, U

n = 30
A = np.random.rand(n,n)
A_jax = jnp.array(A)
%time L_jax, U_jax = LU_jax(A_jax)
