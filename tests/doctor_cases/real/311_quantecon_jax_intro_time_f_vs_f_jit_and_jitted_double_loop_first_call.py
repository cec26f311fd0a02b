# source: https://github.com/QuantEcon/lecture-jax/issues/206
# title: Replace `%time` with `%timeit`: QuantEcon's 'An Introduction to JAX' lecture compares an eager `f` with `f_jit` through single `%time` runs that a reader found misleading; its vectorization section times a Python double loop over a freshly jitted `f` in a `%%time` cell
# established-by: maintainer jstac (agreed that the lecture's `%time` comparison of `f` against `f_jit` was misleading and asked for `%timeit`; HumphreyYang reported it and fixed it in PR #207)
# cause: The issue (reported by shizejin, written up by HumphreyYang, accepted by jstac) found the comparison of the eager `f` with `f_jit` misleading: each is one `%time` run, which garbage collection and machine load can sway, and #207 moved those lines to `%timeit`. The corpus reads `%time` as IPython's one-run readout and leaves LB104 out there (README, 'A `%time` line'), so that finding is not labelled: every `%time` here waits with `.block_until_ready()`, the eager `f`'s first runs at each size are compile timed on purpose (the prose says so and times them again), and `f_jit` is called once before its timing. What a correct doctor still reports: the vectorization section redefines `f` under `@jax.jit` and makes its first call inside the `%%time` cell's double loop, so the compile of `f` is part of the 6,400-call figure the lecture calls 'extremely slow' (LB103 at the call in the loop, as case 302's jitted loop that starts with the compiling call). The loop itself, eager indexing `x[i]` and a host write into the NumPy `z_loops` per element, is the lecture's deliberate slow baseline beside `meshgrid` and `vmap` (cases 242, 279, 302: not LB114 or LB115). The meshgrid and vmap cells time a first call and then the same call again ('run again to eliminate the compilation time'), the corpus's compile timed on purpose. Code: the timed cells of lectures/jax_intro.md as stored at commit 01e332d (before #207), in order; the prose, the random-number, immutability, functional-programming and gradient cells (untimed) and the exercise solution (the same `compute_call_price_jax` as case 058, from the sibling lecture) are left out.
# static: LB103
# dynamic: n/a
# inferred: LB103 (the first call of the newly jitted `f` is inside the timed loop; the thread discusses only the `%time` comparison)
# lines: LB103:57
# first-sight: 0228b9c 2026-12-06 py: found LB103:57; missed none; false LB102:57 | notebook: found LB103:57; missed none; false LB102:57

import jax
import jax.numpy as jnp
# %%
jax.config.update("jax_enable_x64", True)
# %%
import numpy as np
# %%
def f(x):
    a = 3*x + jnp.sin(x) + jnp.cos(x**2) - jnp.cos(2*x) - x**2 * 0.4 * x**1.5
    return jnp.sum(a)
# %%
n = 50_000_000
x = jnp.ones(n)
# %%
%time f(x).block_until_ready()
# %%
%time f(x).block_until_ready()
# %%
m = 50_000_001
y = jnp.ones(m)
# %%
%time f(y).block_until_ready()
# %%
%time f(y).block_until_ready()
# %%
%time f(x).block_until_ready()
# %%
f_jit = jax.jit(f)   # target for JIT compilation
# %%
f_jit(x)
# %%
%time f_jit(x).block_until_ready()
# %%
@jax.jit
def f(x, y):
    return jnp.cos(x**2 + y**2) / (1 + x**2 + y**2)

n = 80
x = jnp.linspace(-2, 2, n)
y = x

z_loops = np.empty((n, n))
# %%
%%time
for i in range(n):
    for j in range(n):
        z_loops[i, j] = f(x[i], y[j])
# %%
x_mesh, y_mesh = jnp.meshgrid(x, y)
# %%
%%time
z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
%%time
z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
jnp.allclose(z_mesh, z_loops)
# %%
n = 6000
x = jnp.linspace(-2, 2, n)
y = x
x_mesh, y_mesh = jnp.meshgrid(x, y)
# %%
%%time
z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
%%time
z_mesh = f(x_mesh, y_mesh).block_until_ready()
# %%
f_vec_y = jax.vmap(f, in_axes=(None, 0))
# %%
f_vec = jax.vmap(f_vec_y, in_axes=(0, None))
# %%
%%time
z_vmap = f_vec(x, y).block_until_ready()
# %%
%%time
z_vmap = f_vec(x, y).block_until_ready()
# %%
jnp.allclose(z_vmap, z_mesh)
