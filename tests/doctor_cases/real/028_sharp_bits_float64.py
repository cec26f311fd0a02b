# source: https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html
# title: JAX - The Sharp Bits (Double (64bit) precision)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: JAX enforces single precision by default, so a float64 request yields float32 until jax_enable_x64 is set at startup.
# static: LB108
# dynamic: LB231
# inferred: none
# lines: LB108:17

import numpy as np
from jax import grad, jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp
# %%
x = random.uniform(random.PRNGKey(0), (1000,), dtype=jnp.float64)
x.dtype
