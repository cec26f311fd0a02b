# source: https://github.com/pjs902/jax-demo/blob/8de44c2a5a1409f128231b08e2303a29d35f640d/jax_intro.ipynb
# title: pjs902/jax-demo's 'Intro to JAX' notebook: a Plummer velocity-dispersion profile on a NumPy grid of 1,000,000 radii timed with IPython's `%timeit` in NumPy, in eager `jax.numpy` and jitted, with the first jitted call timed with `%time` as 'jax jit compilation'; stored outputs 2.28 ms, 1.37 ms, 12.7 ms wall and 359 us
# established-by: maintainer pjs902 (the notebook's author; its markdown after the cell reads the figures: 'The first time we call it, it takes about 10ms, which is slower that the numpy version! This is because the JIT compiler is compiling the function. However, on all subsequent calls, the JIT'd version runs in about 350us, which is about 6 times faster than the numpy version.')
# cause: The author times the compile on purpose (the cell prints 'jax jit compilation:' before `%time`, and the markdown reads that figure as the compile), so no LB103 at the `%time` line (the README's 'timing that measures compilation on purpose'); `%time` is not LB104 (the README's `%time` reading), and `%timeit` without `-n` calibrates before its reported loops (no LB103 at the eager `%timeit`, whose operations compile on their first use). What a correct doctor reports by the catalogue: no JAX timing waits for its result (LB102 at the eager `%timeit`, the `%time` and the jitted `%timeit`; the jitted figure, 359 us for a 1,000,000-element float64 profile, is then dispatch plus whatever of the run finishes before the call returns); and `rs` is a NumPy array (`np.linspace`), so every timed JAX call copies 8 MB to the device inside the timing (LB115 at the same three lines; 365's reading of NumPy inputs handed to a JAX function on every timed call; x64 is on, so the copy is float64 as posted). The NumPy `%timeit` is NumPy's own baseline (nothing to report). Code: the notebook's first two code cells at commit 8de44c2, unchanged; its markdown and the later cells (control flow, static arguments, grad, vmap and the rest of a 850,000-character notebook) are left out.
# static: LB102, LB115
# dynamic: n/a
# inferred: LB102 (no JAX timing waits for its result; the author did not discuss it), LB115 (the NumPy `rs` is copied to the device on every timed JAX call; not discussed)
# lines: LB102:56/64/69, LB115:56/64/69
# first-sight: d481e6f 2026-12-06 py: found LB102:56 LB102:64 LB115:64 LB102:69 LB115:69; missed none; false LB103:64 | notebook: found LB102:56 LB102:64 LB115:64 LB102:69 LB115:69; missed none; false LB103:64

# %%
import numpy as np
import matplotlib.pyplot as plt

%config InlineBackend.figure_format = 'retina'
import seaborn as sns

sns.set_context("notebook")
sns.set_style("ticks")

import jax

# by default, jax uses 32-bit precision, which is a trade off that ML people are often willing to
# make, but for most of our purposes, we want 64-bit precision
jax.config.update("jax_enable_x64", True)

# %%
# define some arbitrary function
def plummer_dispersion(rs, sigma0, a):
    return np.sqrt(sigma0**2 / np.sqrt(1 + rs**2 / a**2))


# define the same function but with jax
# import the jax version of numpy
import jax.numpy as jnp


# now define the function in the exact same way
def plummer_dispersion_jax(rs, sigma0, a):
    return jnp.sqrt(sigma0**2 / jnp.sqrt(1 + rs**2 / a**2))


# now do some basic benchmarking

# use an absurd resolution, for demonstration purposes
rs = np.linspace(0, 1000, 1_000_000)

# first the numpy version
print("numpy:")
%timeit plummer_dispersion(rs, 15, 200)
print()


# now the jax version
print("jax:")
%timeit plummer_dispersion_jax(rs, 15, 200)
print()

# now turn on JIT:
plummer_dispersion_jax_jit = jax.jit(plummer_dispersion_jax)

# The first time we evaluate the function, it will be compiled
print("jax jit compilation:")
%time _ = plummer_dispersion_jax_jit(rs, 15, 200)
print()

# all subsequent calls will be faster
print("jax jitted:")
%timeit plummer_dispersion_jax_jit(rs, 15, 200)

2.3e-3 / 350e-6
