# source: https://github.com/jaxleyverse/jaxley/blob/031583d06f6ee1c51a5736eac235a4188ef8c623/docs/tutorials/04_jit_and_vmap.ipynb
# title: Jaxley documentation tutorial 'Speeding up simulations': a multi-compartment Hodgkin-Huxley cell simulated for five conductance sets in a Python loop, then with a jitted simulator ('First run, will be slow.' / 'More runs, will be much faster.'), with `vmap`, and with `jit(vmap(...))` over ten batches, in float64 with `jax_enable_x64` set
# established-by: maintainer jaxleyverse (the Jaxley project's own tutorial notebook; no issue discusses its performance)
# cause: Correct code for what it does: it reads no clock. The page explains jit and vmap by comment ('First run, will be slow.', 'More runs, will be much faster.') and prose, never by a timed figure, so there is nothing for LB102-LB105 to be about (the reading of 106 and 369). The un-jitted `simulate` in a list comprehension over five parameter sets is the tutorial's plain baseline and is untimed (an untimed eager loop is not LB114, the readings of 246, 260 and 369); `jax.jit` is applied once per form, outside any loop (no LB111), and the ten-batch loop hands `jit(vmap(simulate))` arrays of one shape, so it compiles once (no LB117). float64 is used with `jax_enable_x64` set in the second cell (no LB108), and `from jax import config` is the current spelling (no LB113). A correct doctor stays quiet. Code: the notebook's code cells at commit 031583d in order, one `# %%` cell each (the markdown, with its summary and stimulus-sweep snippets, and the outputs left out).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 35efc1f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

# %%
from jax import config
config.update("jax_platform_name", "cpu")

# %%
config.update("jax_enable_x64", True)  # Set to false to use `float32`.

# %%
import matplotlib.pyplot as plt
import numpy as np
import jax.numpy as jnp
from jax import jit, vmap

import jaxley as jx
from jaxley.channels import Na, K, Leak

# %%
dt = 0.025
t_max = 10.0

comp = jx.Compartment()
branch = jx.Branch(comp, ncomp=4)
cell = jx.Cell(branch, parents=[-1, 0, 0, 1, 1, 2, 2])

cell.insert(Na())
cell.insert(K())
cell.insert(Leak())

cell.delete_stimuli()
current = jx.step_current(i_delay=1.0, i_dur=1.0, i_amp=0.1, delta_t=dt, t_max=t_max)
cell.branch(0).loc(0.0).stimulate(current)

cell.delete_recordings()
cell.branch(0).loc(0.0).record()

# %%
def simulate(params):
    param_state = None
    param_state = cell.data_set("Na_gNa", params[0], param_state)
    param_state = cell.data_set("K_gK", params[1], param_state)
    return jx.integrate(cell, param_state=param_state, delta_t=dt)

# %%
# Define 5 sets of sodium and potassium conductances.
all_params = jnp.asarray(np.random.rand(5, 2))

voltages = jnp.asarray([simulate(params) for params in all_params])
print("voltages.shape", voltages.shape)

# %%
jitted_simulate = jit(simulate)

# %%
# First run, will be slow.
voltages = jitted_simulate(all_params[0])

# %%
# More runs, will be much faster.
voltages = jnp.asarray([jitted_simulate(params) for params in all_params])
print("voltages.shape", voltages.shape)

# %%
# Using vmap for parallelization.
vmapped_simulate = vmap(jitted_simulate)

# %%
voltages = vmapped_simulate(all_params)

# %%
jitted_vmapped_simulate = jit(vmap(simulate))

# %%
for batch in range(10):
    all_params = jnp.asarray(np.random.rand(5, 2))
    voltages_batch = jitted_vmapped_simulate(all_params)
