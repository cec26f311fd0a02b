# source: https://github.com/QuantEcon/lecture-python-programming.myst/blob/03a37af07f387874ed58af44afcb6280ef49c440/lectures/jax_intro.md
# title: An Introduction to JAX (QuantEcon's Python Programming lecture): `with qe.Timer():` blocks around one waited call each, first runs timed on purpose and timed again warm, a jitted kernel called in a timed double loop, two figures on new shapes timed once
# established-by: maintainer QuantEcon (the lecture source, after the move from `%time`/`tic`-`toc` to the `qe.Timer` context manager)
# cause: Every timed call waits (`.block_until_ready()`), and the lecture times first runs on purpose and again right after ('If we run it a second time it becomes faster again', 'Let's run again to eliminate compile time', 'Let's run it once to compile it'), the corpus's reading of a compile timed on purpose (no LB103 or LB104 there, cases 225, 287, 305). But each figure is one `qe.Timer` reading of one run: the warm repeats, the warm `f(x)` after the `f(y)` pair, the warmed `f_jit(x)`, and the three blocks timed only once are single samples (LB104, at the first statement inside each timer block, case 225's reading of this lecture series' `qe.Timer`). Three of the timings hold a compile nobody separates: the double loop calls the freshly jitted `f(x, y)` for the first time inside the timer, so its 'extremely slow' figure includes the trace and compile (LB103 at the call in the loop, case 302's reading); the 'serious grid' `f(x_mesh, y_mesh)` at shape (6000, 6000) compiles again for the new shape (80 by 80 before), and the vmapped `f_vec(x, y)` compiles the batched kernel on its first call, so the claim that vmap's time 'is essentially the same as the mesh operation' compares two compile-inclusive single samples (LB103 at both). The exercise's jitted `compute_call_price_jax` runs a Python `for t in range(n)` with `n = 20` under `jax.jit`, unrolled into 20 copies of its body (LB106, as 247 and 056 label a constant-length loop under jit). The untimed `f_jit(x)` compile call is not waited for, so its run can spill into the next timer's interval (the timed call itself waits; the catalogue has no code for a warm-up left running, case 309's remark). The double loop's eager indexing and its per-element write into a NumPy array are the 'slow for loop version' the lecture sets out to show, a baseline by design (cases 242, 279), so no LB114 or LB115 there. No issue discusses these readings; they are the catalogue's. Code: the lecture's code cells at commit 03a37af in order, one `# %%` part each, markdown dropped; left out are the `!pip install` cell and the cells that time nothing (JAX-as-NumPy, immutability and random-number demonstrations, the functional-programming and gradients sections), keeping the imports, the x64 switch and the `import numpy as np` cell.
# static: LB103, LB104, LB106
# dynamic: n/a
# inferred: LB103 (first calls of the jitted kernel, at a new shape, and of its vmapped form, timed once; not discussed), LB104 (each warm figure and each figure timed once is one `qe.Timer` reading of one run; not discussed), LB106 (a 20-step Python loop under `jax.jit`; not discussed)
# lines: LB103:71/95/106, LB104:32/41/44/51/69/85/95/106/142, LB106:129
# first-sight: 0228b9c 2026-12-06 py: found LB104:32 LB104:41 LB104:44 LB104:51 LB103:71 LB104:85 LB104:95 LB104:106 LB103:106 LB106:129 LB104:142; missed none; false LB104:38 LB102:71 LB104:82 | notebook: found LB104:32 LB104:41 LB104:44 LB104:51 LB103:71 LB104:85 LB104:95 LB104:106 LB103:106 LB106:129 LB104:142; missed none; false LB104:38 LB102:71 LB104:82

import jax
import jax.numpy as jnp
import quantecon as qe
# %%
jax.config.update("jax_enable_x64", True)
# %%
import numpy as np
a = np.linspace(0, 1, 3)
a
# %%
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# %%
n = 50_000_000
x = jnp.ones(n)
# %%
with qe.Timer():
    f(x).block_until_ready()
# %%
with qe.Timer():
    f(x).block_until_ready()
# %%
m = 50_000_001
y = jnp.ones(m)
# %%
with qe.Timer():
    f(y).block_until_ready()
# %%
with qe.Timer():
    f(y).block_until_ready()
# %%
with qe.Timer():
    f(x).block_until_ready()
# %%
f_jit = jax.jit(f)   # target for JIT compilation
# %%
f_jit(x)
# %%
with qe.Timer():
    f_jit(x).block_until_ready()
# %%
@jax.jit
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# %%
@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x

z_loops = np.empty((n, n))
# %%
with qe.Timer():
    for i in range(n):
        for j in range(n):
            z_loops[i, j] = f(x[i], y[j])
# %%
z_bad = f(x, y)
# %%
z_bad.shape
# %%
z_loops.shape
# %%
x_mesh, y_mesh = jnp.meshgrid(x, y)
# %%
with qe.Timer():
    z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
with qe.Timer():
    z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
jnp.allclose(z_mesh, z_loops)
# %%
n = 6000
x = jnp.linspace(-2, 2, n)
y = x
x_mesh, y_mesh = jnp.meshgrid(x, y)
# %%
with qe.Timer():
    z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
x_mesh.nbytes + y_mesh.nbytes
# %%
x.nbytes  # and y is just a pointer to x
# %%
f_vec_y = jax.vmap(f, in_axes=(None, 0))
# %%
f_vec = jax.vmap(f_vec_y, in_axes=(0, None))
# %%
with qe.Timer():
    z_vmap = f_vec(x, y).block_until_ready()
# %%
jnp.allclose(z_vmap, z_mesh)
# %%
M = 10_000_000

n, β, K = 20, 0.99, 100
μ, ρ, ν, S0, h0 = 0.0001, 0.1, 0.001, 10, 0

@jax.jit
def compute_call_price_jax(β=β,
                           μ=μ,
                           S0=S0,
                           h0=h0,
                           K=K,
                           n=n,
                           ρ=ρ,
                           ν=ν,
                           M=M,
                           key=jax.random.PRNGKey(1)):

    s = jnp.full(M, np.log(S0))
    h = jnp.full(M, h0)
    for t in range(n):
        key, subkey = jax.random.split(key)
        Z = jax.random.normal(subkey, (2, M))
        s = s + μ + jnp.exp(h) * Z[0, :]
        h = ρ * h + ν * Z[1, :]
    expectation = jnp.mean(jnp.maximum(jnp.exp(s) - K, 0))
        
    return β**n * expectation
# %%
with qe.Timer():
    compute_call_price_jax().block_until_ready()
# %%
with qe.Timer():
    compute_call_price_jax().block_until_ready()
