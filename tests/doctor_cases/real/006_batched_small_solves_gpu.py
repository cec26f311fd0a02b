# source: https://github.com/jax-ml/jax/issues/1139
# title: slow linalg.solve
# established-by: maintainer hawkinsp
# cause: Batched solves of many tiny matrices were not yet optimised on GPU (one cuSOLVER call per matrix instead of a batched kernel); it is a library limitation, not a usage error.
# static: LB115
# dynamic: n/a
# inferred: LB115 (the NumPy solve on device arrays copies them to the host inside the timing; the thread did not discuss it)
# lines: LB115:36

import jax
import jax.numpy as np
import numpy as onp

def to_gpu(arr):
    return jax.device_put(arr.astype(np.float32))

num_matrices = int(1e6)
sidelen = 3

A = to_gpu(onp.random.normal(size=(num_matrices, sidelen, sidelen)))
b = to_gpu(onp.random.normal(size=(num_matrices, sidelen)))

solve_jit = jax.jit(np.linalg.solve)
solve_vmap = jax.vmap(np.linalg.solve)
solve_vmap_jit = jax.jit(jax.vmap(np.linalg.solve))

# run jit'ed versions once
_ = solve_jit(A, b)
_ = solve_vmap_jit(A, b)
                                     
%time np.linalg.solve(A, b).block_until_ready()   # 16.5 s
%time solve_jit(A, b).block_until_ready()         # 17.0 s
%time solve_vmap(A, b).block_until_ready()        # 17.0 s
%time solve_vmap_jit(A, b).block_until_ready()    # 15.3 s

%time onp.linalg.solve(A, b)  # 383 ms
