# source: https://github.com/jax-ml/jax/issues/3832
# title: float64 dot on cpu is slow
# established-by: maintainer hawkinsp
# cause: XLA's CPU matmul for float64 was 3-4x slower than NumPy's BLAS at the time; improvements to CPU matmuls were pending. The benchmark itself is sound.
# static: LB113
# dynamic: none
# inferred: LB113 (`import jax.config as config` fails on jax 0.10.2)
# lines: LB113:14

import time
import jax
import numpy as np
import jax.numpy as jnp
import jax.config as config
jax.config.update("jax_enable_x64", True)

chi = 256
dtype = np.float64
Aj = jnp.ones((chi, chi), dtype=dtype)
Bj = jnp.ones((chi, chi), dtype=dtype)

An = np.ones((chi, chi), dtype=dtype)
Bn = np.ones((chi, chi), dtype=dtype)

%timeit jnp.dot(Aj, Bj).block_until_ready()
%timeit np.dot(An, Bn)
