# source: https://github.com/jax-md/jax-md/blob/ec5486932b24873553f9d40d01403decc9a1860a/notebooks/lj_benchmark.ipynb
# title: JAX MD's 'LJ Benchmark' notebook (64,000 Lennard-Jones particles, after HOOMD-blue's benchmark): 10,000 Nose-Hoover NVT steps with a sparse neighbor list run once by `lax.fori_loop` and waited for 'to make sure the JIT cache is occupied', then the same loop timed by a `%%timeit` cell that waits on the final positions
# established-by: maintainer jax-md (the JAX MD project's own benchmark notebook; its markdown reads the figure as '22.4 s / loop which is 2.24 ms / step' on an A100; no issue discusses its timing)
# cause: Correct code. The timed cell runs the whole 10,000-step simulation as one `lax.fori_loop` (no Python loop of JAX operations, no LB114, no LB106) and ends with `new_state.position.block_until_ready()`, so every timed run waits for the final state (no LB102). The cell before it runs the same `lax.fori_loop(0, 10000, step, (state, nbrs))` once and waits, with the notebook's comment 'Run once to make sure the JIT cache is occupied': the eager `fori_loop` traces `step` (the same function object each time) and compiles the loop on that first run, and the timed runs reuse the cached executable (no LB103, no LB111: no `jax.jit` is applied in the timed cell, unlike 398's fresh wrapper per statement). `%%timeit` repeats the run and reports the best of five (no LB104, no LB105). The positions are made on the device with `jax.numpy` from a Python list built once before any timing (no LB115), and float64 is requested only after `config.update('jax_enable_x64', True)` (no LB108; `from jax import config` imports, unlike the notebook's older `from jax.config import config`). A correct doctor stays quiet. Code: the notebook's code cells at commit ec54869 up to the timed cell, in order, one `# %%` cell each (the imports, with the Colab-only `!pip`, `!nvidia-smi`, the system set-up, the neighbor list and integrator, the warm-up, the overflow check and the `%%timeit` cell); the markdown, the outputs and the renderer cell and the cells after it are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none

# %%
#@title Imports
import os

# Check if running in actual Google Colab
IN_COLAB = 'COLAB_RELEASE_TAG' in os.environ
if IN_COLAB:
  !pip install -q --upgrade git+https://www.github.com/google/jax-md

import jax.numpy as np
import numpy as onp
from jax import jit
from jax import random
from jax import lax

from jax import config
config.update('jax_enable_x64', True)

from jax_md import space
from jax_md import energy
from jax_md import simulate
from jax_md import quantity
from jax_md import partition

from jax_md.colab_tools import renderer
# %%
!nvidia-smi
# %%
lattice_constant = 1.37820
N_rep = 40
box_size = N_rep * lattice_constant
# Using float32 for positions / velocities, but float64 for reductions.
dtype = np.float32

# Specify the format of the neighbor list. 
# Options are Dense, Sparse, or OrderedSparse. 
format = partition.OrderedSparse

displacement, shift = space.periodic(box_size)
# %%
R = []
for i in range(N_rep):
  for j in range(N_rep):
    for k in range(N_rep):
      R += [[i, j, k]]
R = np.array(R, dtype=dtype) * lattice_constant
# %%
N = R.shape[0]
phi = N / (lattice_constant * N_rep) ** 3
print(f'Created a system of {N} LJ particles with number density {phi:.3f}')
# %%
neighbor_fn, energy_fn = energy.lennard_jones_neighbor_list(displacement,
                                                            box_size, 
                                                            r_cutoff=3.0,
                                                            dr_threshold=1.,
                                                            format=format)
# %%
init, apply = simulate.nvt_nose_hoover(energy_fn, shift, 5e-3, kT=1.2)
# %%
key = random.PRNGKey(0)

# We pick an "extra capacity" to ensure ahead of time that the neighbor
# list will have enough capacity. Since sparse neighbor lists are more 
# robust to changes in the number of particles, in this case we only 
# need to actually add more capacity for dense neighbor lists.
if format is partition.Dense: 
  nbrs = neighbor_fn.allocate(R, extra_capacity=55)
else:
  nbrs = neighbor_fn.allocate(R)

state = init(key, R, neighbor=nbrs)
# %%
def step(i, state_and_nbrs):
  state, nbrs = state_and_nbrs
  nbrs = nbrs.update(state.position)
  return apply(state, neighbor=nbrs), nbrs
# %%
# Run once to make sure the JIT cache is occupied.
new_state, new_nbrs = lax.fori_loop(0, 10000, step, (state, nbrs))
new_state.position.block_until_ready()
# %%
# Check to make sure the neighbor list didn't overflow.
new_nbrs.did_buffer_overflow
# %%
%%timeit
new_state, new_nbrs = lax.fori_loop(0, 10000, step, (state, nbrs))
new_state.position.block_until_ready()
