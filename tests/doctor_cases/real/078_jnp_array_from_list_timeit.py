# source: https://github.com/jax-ml/jax/issues/2919
# title: `jax.numpy.array()` is much slower than `numpy.array()` when called on a list
# established-by: maintainer mattjj (with a profile by maintainer hawkinsp; his fix, jax-ml/jax#3350 "make jnp.array faster", closes the issue)
# cause: The timed statements build a device array from a Python list of 10^6 ints. At the time jnp.array converted such a list element by element in Python, so the JAX cell spent minutes in per-element conversion overhead where NumPy converts in C; converting with NumPy first and handing the array to JAX once took as long as NumPy. The maintainers made jnp.array take the NumPy route (jax-ml/jax#3350: 3 min to 224 ms). Code: the cells, their printed outputs dropped.
# static: LB115, LB102
# dynamic: n/a
# inferred: LB115 (each JAX cell copies a host-side list or NumPy array to the device inside the timing, the work the thread is about; LB115 is the catalogue's code for it); LB102 (the timed jnp.array results are never waited for; the thread did not discuss it)
# lines: LB115:18/21, LB102:18/21
# first-sight: b744741 2026-12-02 py: found LB102:18; missed LB115:18/21; false none | notebook: found LB102:18; missed LB115:18/21; false none

import numpy as np
import jax.numpy as jnp
# %%
%%timeit
np.array([0] * int(1e6))
# %%
%%timeit
jnp.array([0] * int(1e6))
# %%
%%timeit
jnp.array(np.array([0] * int(1e6)))
