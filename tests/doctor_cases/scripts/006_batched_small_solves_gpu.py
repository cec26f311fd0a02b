# case: real/006_batched_small_solves_gpu.py
# form: ipython
# causes: LB103:28/30, LB115:33
# changed: num_matrices = int(1e4) instead of int(1e6); b of shape (num_matrices, sidelen, 1) instead of (num_matrices, sidelen) (since jax 0.5 a 1-d batched b is an error in jnp.linalg.solve); runs on CPU (to_gpu's device_put puts on the default device)
# note: LB103 is labelled on the two %time lines whose statements run for the first time there (the un-jitted np.linalg.solve and solve_vmap compile their operations on first use); the jitted ones were warmed. LB115 on the last %time line: NumPy's solve copies the device arrays to the host inside the timing

import jax
import jax.numpy as np
import numpy as onp

def to_gpu(arr):
    return jax.device_put(arr.astype(np.float32))

num_matrices = int(1e4)
sidelen = 3

A = to_gpu(onp.random.normal(size=(num_matrices, sidelen, sidelen)))
b = to_gpu(onp.random.normal(size=(num_matrices, sidelen, 1)))

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
