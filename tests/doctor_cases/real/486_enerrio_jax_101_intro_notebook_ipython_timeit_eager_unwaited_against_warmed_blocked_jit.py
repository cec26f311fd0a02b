# source: https://github.com/enerrio/jax-101/blob/484619d0774cab1608b512f041ef06bfed2428d5/jax-intro.ipynb
# title: enerrio/jax-101's 'Jax 101' notebook, section 'jit': `f` (two elementwise steps and a sum) on `jnp.linspace(-10, 10, 1_000_000)` timed with IPython's `%timeit` eager and jitted, the jitted call warmed first and waited with `.block_until_ready()`, the eager call not waited
# established-by: maintainer enerrio (the notebook's author; its comment says why the jitted function is called once before the timings: 'warm up jitted function (i.e. it compiles 1st time it runs)')
# cause: The cell compares an eager function with its jitted form but waits only for the jitted one: `%timeit f(xs)` returns once the last of `f`'s eager operations is dispatched (LB102 at that line; the eager `jnp.sum` result is a device array like any other). The jitted `%timeit` is warmed (`_ = f_jit(xs)`) and waited: sound. Not labelled: `%timeit` calibrates before its reported loops (no LB103 at the eager line); `xs` is a JAX array (no LB115); the eager `f` is the baseline on purpose, three operations, not a loop of dispatches (no LB114, 242's reading). Code: the notebook's import cell and its 'jit' cells at commit 484619d, unchanged (the `make_jaxpr` cell kept, an empty last cell dropped); the markdown and the untimed sections before them (array creation, random numbers, `grad` and `vmap` plots) are left out.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the eager `%timeit` does not wait for its result; the author waits only for the jitted call, and did not discuss it)
# lines: LB102:34
# first-sight: d481e6f 2026-12-06 py: found LB102:34; missed none; false none | notebook: found LB102:34; missed none; false none

# %%
import numpy as np
import jax.numpy as jnp
import matplotlib.pyplot as plt

%matplotlib inline

# %%
from jax import jit, make_jaxpr

# %%
def f(x):
    x = x + 2
    x = x**2 - 4
    return jnp.sum(x)

f_jit = jit(f)

# %%
xs = jnp.linspace(-10, 10, 1_000_000)
# warm up jitted function (i.e. it compiles 1st time it runs)
_ = f_jit(xs)

%timeit f(xs)
%timeit f_jit(xs).block_until_ready()

# %%
make_jaxpr(f)(xs)
