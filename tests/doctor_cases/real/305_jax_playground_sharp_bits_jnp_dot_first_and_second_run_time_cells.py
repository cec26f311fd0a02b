# source: https://github.com/Matthieudese78/jax_playground/blob/2d5ddb54f75956682aff9ab1463da6dac1927b71/tutorials/the_sharp_bits.py
# title: jax_playground `tutorials/the_sharp_bits.py`: notebook cells that time an eager `jnp.dot(x, x.T).block_until_ready()` on a 10000x10000 array once as '1st run' and once more as '2nd run', each between two `time()` reads
# established-by: maintainer Matthieudese78 (the repository's JAX tutorial notebook, a `# %%` script following JAX's 'Sharp bits' page)
# cause: The '1st run' cell times the first call of `jnp.dot`, its compile included, on purpose: the next cell times the same call again as '2nd run' (the corpus's reading of a first call timed on purpose and timed again warm, cases 200, 216, 287: no LB103 or LB104 there; the compile is JAX's own, case 197). The warm figure is one call between two clock reads, a single sample with nothing to judge its spread by (LB104, at the first statement inside the second clock pair, as case 287's `run_time`). Both intervals are read with `time()` imported from `time`, the wall clock (LB105, at each start read). Both calls wait (`.block_until_ready()`), and `x` is made on the device before the timing (the discarded `jax.device_put(x)` is a no-op). The first cell's `jit(impure_print_side_effect)` calls are the 'Sharp bits' page's demonstration of tracing side effects, untimed. No issue discusses the file; the readings are the catalogue's. Code: the file as stored at commit 2d5ddb5, unchanged (its `#%%` / `# %%` cell markers kept).
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (the warm run is one sample; not discussed), LB105 (`time()` as the interval clock; not discussed)
# lines: LB104:52, LB105:44/51
# first-sight: 803cd8e 2026-12-06 py: found LB105:44 LB105:51 LB104:52; missed none; false LB104:45 | notebook: found LB105:44 LB105:51 LB104:52; missed none; false LB104:45

#%%
import numpy as np
from jax import jit
from jax import lax
from jax import random
import jax
import jax.numpy as jnp
from time import time
# %%
def impure_print_side_effect(x):
  print("Executing function")  # This is a side-effect
  return x

# The side-effects appear during the first run
print ("First call: ", jit(impure_print_side_effect)(4.))

# Subsequent runs with parameters of same type and shape may not show the side-effect
# This is because JAX now invokes a cached compilation of the function
print ("Second call: ", jit(impure_print_side_effect)(5.))

# JAX re-runs the Python function when the type or shape of the argument changes
print ("Third call, different type: ", jit(impure_print_side_effect)(jnp.array([5.])))
# %%

# List available devices
print("JAX devices:", jax.devices())

# Create a large array on GPU
x = jnp.ones((10000, 10000))

jax.device_put(x)

# Perform a computation
start = time()
y = jnp.dot(x, x.T).block_until_ready()  # Ensure computation completes
end = time()

print(f"1st run : Computation finished in {end - start:.3f} seconds")

# %%
start = time()
y = jnp.dot(x, x.T).block_until_ready()  # Ensure computation completes
end = time()

print(f"2nd run : Computation finished in {end - start:.3f} seconds")

# %%
