# source: https://docs.jax.dev/en/latest/notebooks/thinking_in_jax.html
# title: How to think in JAX (To JIT or not to JIT)
# established-by: maintainer jax-ml (official JAX documentation)
# cause: Correct comparison: both variants run on the same device array and every timed call blocks; %timeit's calibration runs warm the jitted one.
# static: none
# dynamic: none
# inferred: none
# lines: none

import jax.numpy as jnp

def norm(X):
  X = X - X.mean(0)
  return X / X.std(0)
# %%
from jax import jit
norm_compiled = jit(norm)
# %%
np.random.seed(1701)
X = jnp.array(np.random.rand(10000, 10))
np.allclose(norm(X), norm_compiled(X), atol=1E-6)
# %%
%timeit norm(X).block_until_ready()
%timeit norm_compiled(X).block_until_ready()
