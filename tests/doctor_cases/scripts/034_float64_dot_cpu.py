# case: real/034_float64_dot_cpu.py
# form: ipython
# causes: none
# changed: `import jax.config as config` -> `from jax import config` (jax.config is no module since jax 0.4.25); chi = 128 instead of 256
# note: not a *_correct case: the thread's cause is XLA's float64 matmul speed at the time, and its timing is sound (blocked, %timeit warms up); a correct runtime doctor reports no timing cause

import time
import jax
import numpy as np
import jax.numpy as jnp
from jax import config
jax.config.update("jax_enable_x64", True)

chi = 128
dtype = np.float64
Aj = jnp.ones((chi, chi), dtype=dtype)
Bj = jnp.ones((chi, chi), dtype=dtype)

An = np.ones((chi, chi), dtype=dtype)
Bn = np.ones((chi, chi), dtype=dtype)

%timeit jnp.dot(Aj, Bj).block_until_ready()
%timeit np.dot(An, Bn)
