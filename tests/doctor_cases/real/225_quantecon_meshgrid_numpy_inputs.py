# source: https://python-programming.quantecon.org/numpy_vs_numba_vs_jax.html
# title: NumPy vs Numba vs JAX (QuantEcon lecture): every implementation timed twice with qe.Timer
# established-by: maintainer jstac (QuantEcon's lecture, with mmcky; QuantEcon/lecture-python-programming#440 on the same lecture)
# cause: The lecture's timings follow its maintainers' rule (block_until_ready, and each jitted or vmapped function timed twice, the first run including compilation on purpose), and issue #440 established why `qm_jax` (lax.scan over 10 million steps) is slow on GPU: XLA runs the loop's control on the host, a cause outside the timing that the catalogue has no code for. One timed pair is not what it appears: `np.meshgrid` of the JAX grid returns NumPy arrays, so both timings of the jitted `f(x_mesh, y_mesh)` copy two 3000x3000 float32 arrays (72 MB) to the device on every call. The NumPy timing of `f` runs before `f` is redefined as a jitted JAX function. Each figure is one `qe.Timer` reading of one run: the first of each pair holds the compile on purpose (the lecture's rule, timed again warm right after), the second, and the two timed only once (NumPy's `np.max(f(x, y))`, the vmapped `f_vec(grid)`), are single samples (LB104; the lecture did not discuss it). Entered first as 098 without LB104; retired (see the README). Code: the lecture's code cells, markdown dropped.
# static: LB115, LB104
# dynamic: n/a
# inferred: LB115 (np.meshgrid returns numpy.ndarray for JAX inputs, checked on jax 0.10.2; the lecture and the issue did not discuss it); LB104 (each warm figure, and each figure timed once, is one qe.Timer reading of one run; not discussed)
# lines: LB115:125/128, LB104:56/76/95/114/128/142/156/172/190
# first-sight: 8417a81 2026-12-02 py: found LB115:125 LB115:128; missed LB104:56/76/95/114/128/142/156/172/190; false LB115:56 LB102:56 LB115:56 LB114:142 LB114:153 LB115:153 LB114:156 LB115:156 LB103:187 | notebook: found LB115:125 LB115:128; missed LB104:56/76/95/114/128/142/156/172/190; false LB115:56 LB102:56 LB115:56 LB114:142 LB114:153 LB115:153 LB114:156 LB115:156 LB103:187

!pip install quantecon jax
# %%
import random
import numpy as np
import quantecon as qe
import matplotlib.pyplot as plt
from mpl_toolkits.mplot3d.axes3d import Axes3D
from matplotlib import cm
import jax
import jax.numpy as jnp
# %%

def f(x, y):
    return np.cos(x**2 + y**2) / (1 + x**2 + y**2)

xgrid = np.linspace(-3, 3, 50)
ygrid = xgrid
x, y = np.meshgrid(xgrid, ygrid)

fig = plt.figure(figsize=(10, 8))
ax = fig.add_subplot(111, projection='3d')
ax.plot_surface(x,
                y,
                f(x, y),
                rstride=2, cstride=2,
                cmap=cm.jet,
                alpha=0.7,
                linewidth=0.25)
ax.set_zlim(-0.5, 1.0)
ax.set_xlabel('$x$', fontsize=14)
ax.set_ylabel('$y$', fontsize=14)
plt.show()
# %%
grid = np.linspace(-3, 3, 50)
m = -np.inf
for x in grid:
    for y in grid:
        z = f(x, y)
        if z > m:
            m = z
# %%
grid = np.linspace(-3, 3, 3_000)
x, y = np.meshgrid(grid, grid)

with qe.Timer(precision=8):
    np.max(f(x, y))
# %%
import numba

@numba.jit
def compute_max_numba(grid):
    m = -np.inf
    for x in grid:
        for y in grid:
            z = np.cos(x**2 + y**2) / (1 + x**2 + y**2)
            if z > m:
                m = z
    return m

grid = np.linspace(-3, 3, 3_000)

with qe.Timer(precision=8):
    compute_max_numba(grid)
# %%
with qe.Timer(precision=8):
    compute_max_numba(grid)
# %%
@numba.jit(parallel=True)
def compute_max_numba_parallel(grid):
    n = len(grid)
    m = -np.inf
    for i in numba.prange(n):
        for j in range(n):
            x = grid[i]
            y = grid[j]
            z = np.cos(x**2 + y**2) / (1 + x**2 + y**2)
            if z > m:
                m = z
    return m

with qe.Timer(precision=8):
    compute_max_numba_parallel(grid)
# %%
with qe.Timer(precision=8):
    compute_max_numba_parallel(grid)
# %%
@numba.jit(parallel=True)
def compute_max_numba_parallel_nested(grid):
    n = len(grid)
    m = -np.inf
    for i in numba.prange(n):
        for j in numba.prange(n):
            x = grid[i]
            y = grid[j]
            z = np.cos(x**2 + y**2) / (1 + x**2 + y**2)
            if z > m:
                m = z
    return m

with qe.Timer(precision=8):
    compute_max_numba_parallel_nested(grid)
# %%
with qe.Timer(precision=8):
    compute_max_numba_parallel_nested(grid)
# %%
@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

# %%
grid = jnp.linspace(-3, 3, 3_000)
x_mesh, y_mesh = np.meshgrid(grid, grid)

with qe.Timer(precision=8):
    z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
with qe.Timer(precision=8):
    z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
grid.nbytes 
# %%
x_mesh.nbytes + y_mesh.nbytes
# %%
# Set up f to compute f(x, y) at every x for any given y
f_vec_x = lambda y: f(grid, y)
# Vectorize this operation over all y
f_vec = jax.vmap(f_vec_x)
# Compute result at all y
z_vmap = f_vec(grid)
# %%
with qe.Timer(precision=8):
    z_vmap_1 = f_vec(grid)
    z_vmap_1.block_until_ready()
# %%
jnp.allclose(z_mesh, z_vmap)
# %%
f_vec_y = jax.vmap(f, in_axes=(None, 0))
# %%
f_vec = jax.vmap(f_vec_y, in_axes=(0, None))
# %%
x, y = grid, grid
with qe.Timer(precision=8):
    z_vmap = f_vec(x, y).block_until_ready()
# %%
with qe.Timer(precision=8):
    z_vmap = f_vec(x, y).block_until_ready()
# %%
@numba.jit
def qm(x0, n, α=4.0):
    x = np.empty(n+1)
    x[0] = x0
    for t in range(n):
      x[t+1] = α * x[t] * (1 - x[t])
    return x
# %%
n = 10_000_000

with qe.Timer(precision=8):
    x = qm(0.1, n)
# %%
with qe.Timer(precision=8):
    x = qm(0.1, n)
# %%
from jax import lax
from functools import partial

@partial(jax.jit, static_argnums=(1,))
def qm_jax(x0, n, α=4.0):
    def update(x, t):
        x_new = α * x * (1 - x)
        return x_new, x_new

    _, x = lax.scan(update, x0, jnp.arange(n))
    return jnp.concatenate([jnp.array([x0]), x])
# %%
with qe.Timer(precision=8):
    x_jax = qm_jax(0.1, n).block_until_ready()
# %%
with qe.Timer(precision=8):
    x_jax = qm_jax(0.1, n).block_until_ready()
