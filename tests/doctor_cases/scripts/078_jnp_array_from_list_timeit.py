# case: real/078_jnp_array_from_list_timeit.py
# form: ipython
# causes: LB115:13/16, LB102:13/16
# changed: int(1e4) instead of int(1e6) in the three timed cells
# note: lines are the %%timeit lines of the two JAX cells; the NumPy cell is correct

import numpy as np
import jax.numpy as jnp
# %%
%%timeit
np.array([0] * int(1e4))
# %%
%%timeit
jnp.array([0] * int(1e4))
# %%
%%timeit
jnp.array(np.array([0] * int(1e4)))
