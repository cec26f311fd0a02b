# source: https://github.com/astro-informatics/s2fft/blob/0919a2db11274d0ec413fefda2beb8c59d041253/notebooks/timing_tests.ipynb
# title: s2fft's `notebooks/timing_tests.ipynb`: the Trapani & Navaza Wigner-d recursion at L = 128 timed with `%timeit` in three implementations, a loop-based NumPy `compute_full`, a vectorised NumPy `compute_full_vectorized` and the jitted `compute_full_jax`, each after the recursion has been run up to the last degree; saved outputs 83.5 ms, 4.47 ms and 1.06 ms per loop
# established-by: maintainer astro-informatics (the repository's owners, s2fft's authors; the notebook's saved outputs put the JAX version at 1.06 ms against 4.47 ms for the vectorised NumPy one; no issue discusses the notebook's timing)
# cause: What a correct doctor reports, by the catalogue. `compute_full_jax` is decorated `@partial(jit, static_argnums=(1,))` in s2fft's `s2fft/wigner/trapani.py` (the stored version, 0637832) and returns a JAX array; `%timeit wigner.trapani.compute_full_jax(dl_jax, L, el)` never waits for it, so the 1.06 ms per loop set beside the NumPy figures can be the dispatch of the update rather than the update (LB102, at the last cell's `%timeit`). The notebook imports `config` with `from jax.config import config`, which current JAX no longer provides, so the first cell raises ImportError before anything is timed (LB113, 307's and 353's reading). Not labelled: the function has been called at the timed shapes by the loop of the cell before (the same `L`, a traced `el`), and `%timeit` without `-n` calibrates before it samples (no LB103); the loop that builds `dl_jax` calls one jitted function with the same shapes and a traced `el`, and is not timed (no LB114, no LB117); x64 is enabled before the float64 arrays are made (no LB108); the two NumPy cells time NumPy. Code: the notebook at commit 0919a2d, its code cells as `# %%` cells and their outputs dropped; one empty markdown cell is left out.
# static: LB102, LB113
# dynamic: n/a
# inferred: LB102 (the jitted function's result is never waited for under `%timeit`; not discussed), LB113 (`from jax.config import config`, removed from JAX; not discussed)
# lines: LB102:52, LB113:14
# first-sight: 0b61823 2026-12-06 py: found LB113:14; missed LB102:52; false none | notebook: found LB113:14; missed LB102:52; false none

# %%
import numpy as np
import jax.numpy as jnp
from jax.config import config
config.update("jax_enable_x64", True)

# %%
import s2fft
import s2fft.wigner as wigner
import pyssht as ssht

# %%
# Set bandlimit
L = 128

# %%
dl = np.zeros((2 * L - 1, 2 * L - 1), dtype=np.float64)
dl = wigner.trapani.init(dl, L)
for el in range(1, L):
    dl = wigner.trapani.compute_full(dl, L, el)

# %%
%timeit wigner.trapani.compute_full(dl, L, el)

# %%
dl_vect = np.zeros((2 * L - 1, 2 * L - 1), dtype=np.float64)
dl_vect = wigner.trapani.init(dl_vect, L)
for el in range(1, L):
    dl_vect = wigner.trapani.compute_full_vectorized(dl_vect, L, el)   

# %%
%timeit wigner.trapani.compute_full_vectorized(dl_vect, L, el)

# %%
# Compare to routines in SSHT, which have been validated extensively.
dl_jax = jnp.zeros((2 * L - 1, 2 * L - 1), dtype=jnp.float64)
dl_jax = wigner.trapani.init_jax(dl_jax, L)
for el in range(1, L):
    dl_jax = wigner.trapani.compute_full_jax(dl_jax, L, el)

# %%
%timeit wigner.trapani.compute_full_jax(dl_jax, L, el)
