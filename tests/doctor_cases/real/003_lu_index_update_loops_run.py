# source: https://github.com/jax-ml/jax/issues/2242
# explain: LU_jax
# dynamic: LB201, LB202, LB270
# Runnable copy of 003_lu_index_update_loops.py for levelbench.explain: smallest sizes that keep the pattern.

import numpy as np
import jax.numpy as jnp
from jax import jit

# jax.ops.index_update / index_add were removed; .at[].set / .at[].add are their
# replacements. n=16 instead of 30 keeps the nested unrolled loops.
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


def LU_jax_args():
    n = 16
    return (jnp.array(np.random.rand(n, n)),)
