# source: https://github.com/google/jax-cfd/blob/338642d9d9fc75ff39af22c6b102e27744fc853a/notebooks/demo.ipynb
# title: JAX-CFD 'demo' notebook: 2-D decaying turbulence on a 256x256 grid, 200 outer steps of 25 semi-implicit Navier-Stokes steps each, the trajectory function wrapped in `jax.jit` and its first call timed with `%time _, trajectory = jax.device_get(rollout_fn(v0))` (the notebook shows 'Wall time: 1.75 s')
# established-by: maintainer google (JAX-CFD's own demo notebook; no issue discusses its timing)
# cause: The timed cell builds the step function, wraps `cfd.funcutils.trajectory(step_fn, outer_steps)` in `jax.jit` on the line before, and times its first call under `%time`. What a correct doctor reports, by the catalogue and the corpus's readings: the `%time` figure holds the trace and compile of the whole rollout (a scan over 200 outer steps of 25 inner ones), since nothing called `rollout_fn` before and the cell does not say that its figure is the compile (LB103, the reading of cases 020 and 244 for a `%time` first call); and the call is waited for by `jax.device_get` of the whole trajectory inside the timing, a copy of 200 frames of two 256x256 float32 fields (about 100 MB) to the host (LB115, case 285's reading of `np.asarray` of the timed result). `%time` is IPython's one-run readout, so no LB104 (the corpus's reading of `%time`); the initial velocity is made on the device before the timed line. Code: the notebook's first four code cells at commit 338642d in order, one `# %%` cell each (imports, the timed simulation, a print of the trajectory, its conversion to `xarray`); the plotting and analysis cells after them, and the markdown, are left out.
# static: LB103, LB115
# dynamic: n/a
# inferred: LB103 (the first call of the freshly jitted rollout is the timed one; not discussed), LB115 (the trajectory is copied to the host by `jax.device_get` inside the `%time` statement; not discussed)
# lines: LB103:49, LB115:49
# first-sight: 9bb132d 2026-12-06 py: found LB115:49 LB103:49; missed none; false none | notebook: found LB115:49 LB103:49; missed none; false none

# %%
import jax
import jax.numpy as jnp
import jax_cfd.base as cfd
import numpy as np
import seaborn
import xarray

# %%
size = 256
density = 1.
viscosity = 1e-3
seed = 0
inner_steps = 25
outer_steps = 200

max_velocity = 2.0
cfl_safety_factor = 0.5

# Define the physical dimensions of the simulation.
grid = cfd.grids.Grid((size, size), domain=((0, 2 * jnp.pi), (0, 2 * jnp.pi)))

# Construct a random initial velocity. The `filtered_velocity_field` function
# ensures that the initial velocity is divergence free and it filters out
# high frequency fluctuations.
v0 = cfd.initial_conditions.filtered_velocity_field(
    jax.random.PRNGKey(seed), grid, max_velocity)

# Choose a time step.
dt = cfd.equations.stable_time_step(
    max_velocity, cfl_safety_factor, viscosity, grid)

# Define a step function and use it to compute a trajectory.
step_fn = cfd.funcutils.repeated(
    cfd.equations.semi_implicit_navier_stokes(
        density=density, viscosity=viscosity, dt=dt, grid=grid),
    steps=inner_steps)
rollout_fn = jax.jit(cfd.funcutils.trajectory(step_fn, outer_steps))
%time _, trajectory = jax.device_get(rollout_fn(v0))

# %%
# JAX-CFD uses GridVariable objects for input/output. These objects contain:
#  - array data
#  - an "offset" that documents the position on the unit-cell where the data
#    values are located
#  - grid properties
#  - boundary conditions on the variable
with np.printoptions(edgeitems=1):
  for i, u in enumerate(trajectory):
    print(f'Component {i}: {u}')

# %%
# load into xarray for visualization and analysis
ds = xarray.Dataset(
    {
        'u': (('time', 'x', 'y'), trajectory[0].data),
        'v': (('time', 'x', 'y'), trajectory[1].data),
    },
    coords={
        'x': grid.axes()[0],
        'y': grid.axes()[1],
        'time': dt * inner_steps * np.arange(outer_steps)
    }
)
