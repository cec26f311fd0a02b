# case: real/040_thinking_in_jax_norm_correct.py
# form: ipython
# causes: none
# changed: `import numpy as np` added to the first cell (the page imports it in an earlier cell the case does not keep)

import numpy as np
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
