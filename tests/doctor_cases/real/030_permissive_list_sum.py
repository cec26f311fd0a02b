# source: https://jax.readthedocs.io/en/latest/notebooks/Common_Gotchas_in_JAX.html
# title: JAX - The Sharp Bits (Non-array inputs: NumPy vs. JAX)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Passing a Python list makes every element a separate traced input, so tracing and compilation cost grow with the list length; convert to an array first.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

import numpy as np
from jax import grad, jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp
# %%
def permissive_sum(x):
  return jnp.sum(jnp.array(x))

x = list(range(10))
permissive_sum(x)
# %%
make_jaxpr(permissive_sum)(x)
