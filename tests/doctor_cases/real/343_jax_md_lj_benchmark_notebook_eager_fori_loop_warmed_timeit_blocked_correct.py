# source: https://github.com/jax-md/jax-md/blob/ec5486932b24873553f9d40d01403decc9a1860a/notebooks/lj_benchmark.ipynb
# title: JAX MD's 'LJ Benchmark' notebook: a 64,000-particle Lennard-Jones NVT simulation, 10,000 steps of `lax.fori_loop` run once and waited for ('make sure the JIT cache is occupied'), then the same call under `%%timeit`, waited for through `new_state.position.block_until_ready()`
# established-by: maintainer sschoenholz (the library's benchmark notebook, following HOOMD-blue's LJ benchmark; 22.4 s per 10,000 steps on an A100)
# cause: Correct benchmark code. The timed cell runs the whole 10,000-step simulation as one `lax.fori_loop` over the same `step` function the untimed cell before it ran and waited for, so the loop's trace and compile are cached before `%%timeit` starts (and `%%timeit` without `-n` calibrates with runs of its own); the cell waits for the final positions, an output of the same loop computation, so every timed run holds all 10,000 steps (case 295's wait on one output of one compiled call); and `%%timeit` repeats the run and reports the best of five. The `fori_loop` is called outside `jax.jit`, but it is one loop primitive, not a Python loop of dispatches (no LB114), and its body is traced once into that primitive (no LB106); JAX caches the trace of the same `step` function, so the warm-up run's compile serves the timed runs. The lattice is built from a Python list once, before any timing, and the neighbour-overflow check and the rendering read results after it. `from jax import config` is the current spelling (its older version, `from jax.config import config`, is gone from JAX). No issue discusses the notebook; the reading is the catalogue's. Code: the notebook's code cells at commit ec54869 in order, one `# %%` part each, with IPython's `!` lines as posted.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

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

# %%
renderer.render(
    box_size,
    {'particles': renderer.Sphere(new_state.position)}
)
