# source: https://github.com/cgoemaere/jax-intro/blob/522d71c8d904ed4648cef7b2217cac62527590cc/jax_intro.ipynb
# title: cgoemaere/jax-intro ('Introduction to JAX: from warp-speed NumPy to neural networks'), the JIT cell: `coffee_maker` on 1000 ones timed with IPython's `%timeit` eager ('Slooooooowwwww'), as `jit(coffee_maker)(morning_beans)` re-wrapped inside the timed statement ('Quite slow', commented 'first cup is slow (compilation)'), and as a jitted function wrapped once and warmed ('Super fast'), every statement waited with `.block_until_ready()`
# established-by: maintainer cgoemaere (the notebook's author; the cell's comments and printed labels state what each `%timeit` is meant to show)
# cause: The middle `%timeit` applies `jit(...)` inside the timed statement, so every loop builds a new jit wrapper and looks its compiled program up again; the author reads the figure as compilation ('Now with JIT - first cup is slow (compilation)'), but jit's cache is keyed on the function, so only the first (calibration) call compiles and the reported loops time the wrapper's construction and cache lookup on top of dispatch (LB111 at that line, the catalogue's jit recreated where it is called). `%timeit` without `-n` calibrates first, so no LB103 there (470's reading). The eager `%timeit` is the author's baseline on purpose (no LB114, 242's reading of an eager baseline), and the last `%timeit` is warmed by `_ = jitted_coffee(morning_beans)` and waited: sound. Every statement waits with `.block_until_ready()` (no LB102); the input is a JAX array (no LB115). Code: the notebook's imports cell and its JIT cell at commit 522d71c, unchanged; the markdown and the other cells (random keys, control flow demonstrations that are not timed, vmap, grad, pytrees, Equinox) are left out.
# static: LB111
# dynamic: n/a
# inferred: LB111 (`jit(coffee_maker)` rebuilt inside the timed statement; the author attributes the figure to compilation, which the catalogue's reading does not)
# lines: LB111:34
# first-sight: d481e6f 2026-12-06 py: found LB111:34; missed none; false none | notebook: found LB111:34; missed none; false none

# %%
import jax
import jax.numpy as jnp
import jax.random as jrand
from jax import grad, jit, vmap, lax
import numpy as np
import time
from typing import Any
_counter = 123
print(f"JAX version: {jax.__version__}")

# %%
def coffee_maker(beans):
    """Simulates a complex morning coffee routine"""
    return jnp.sum(4 * beans + 2 * jnp.sin(beans) ** 2)

# First, let's time it without JIT
morning_beans = jnp.ones((1000,))
print("Slooooooowwwww:")
%timeit coffee_maker(morning_beans).block_until_ready()

# Now with JIT - first cup is slow (compilation)
print("Quite slow:")
%timeit jit(coffee_maker)(morning_beans).block_until_ready()

# But every cup after that is lightning fast!
jitted_coffee = jit(coffee_maker)  # or use @jit if you're fancy
_ = jitted_coffee(morning_beans)  # First slow cup
print("Super fast:")
%timeit jitted_coffee(morning_beans).block_until_ready()  # Fast cups forever
