# source: https://sta663-sp26.github.io/slides/Lec07.html
# title: Sta 663 (Duke, Spring 2026, Dr. Colin Rundel), Lecture 07 'NumPy Broadcasting & JAX', section 'JAX & jit': `%timeit` of a 1000x1000 matmul and an elementwise expression in NumPy and JAX, then of `SELU_np`, `SELU_jnp` and `jax.jit(SELU_jnp)` on `arange(1e6)`, none waited for
# established-by: maintainer Colin Rundel (the course's own lecture source, sta663-sp26/sta663-sp26.github.io, Lec07.qmd; no issue discusses its timing; the missing wait is the fault jax-ml/jax#998 fixed in JAX's quickstart, whose `selu` example these slides follow)
# cause: The slides compare JAX with NumPy and show jit's gain ('418 us' for `SELU_jnp_jit` against '1.58 ms' eager and '4.08 ms' for NumPy) from `%timeit` lines that never wait for a JAX result. What a correct doctor reports, by the catalogue and the corpus's readings: `%timeit y = x_jnp @ x_jnp`, `%timeit y = 3*x_jnp + x_jnp`, `%timeit y = SELU_jnp(x)` and `%timeit y = SELU_jnp_jit(x)` assign the JAX array and move on, so each figure is dispatch plus whatever the queue let through, not the computation (LB102 at the four JAX `%timeit` lines, the reading of 240, the same quickstart `selu` timed unblocked on a talk slide, and the counterpart of 387, the same `selu` pair timed with a wait). `%timeit` without `-n` absorbs `SELU_jnp_jit`'s compile in its calibration runs (no LB103), the eager `SELU_jnp` is the slide's deliberate baseline beside its jitted twin (no LB114, the reading of 242 and 387), the NumPy `@` multiplies `x_np` by itself, not by its transpose (no LB110), and x64 is switched on earlier in the lecture, so the arrays are float64 on both sides (no LB108). The NumPy lines time host work and need no wait. Code: the lecture's Python chunks for the setup, the JAX section's imports and x64 switch and the 'JAX performance' and 'jit' slides, in order, one `# %%` cell per chunk with its Quarto `#|` options kept (the `{r}` setup chunk, the broadcasting, random-number and autodiff slides, the static output blocks, and the `SELU_np_jit` pair, which raises `TracerArrayConversionError` and times nothing, left out).
# static: LB102
# dynamic: n/a
# inferred: LB102 (four `%timeit` lines of JAX work with no `block_until_ready`; not discussed in the course, the fault jax-ml/jax#998 established for the quickstart's `selu`)
# lines: LB102:51/59/79/86
# first-sight: 858cce0 2026-12-06 py: found LB102:51 LB102:59 LB102:79 LB102:86; missed none; false none | notebook: found LB102:51 LB102:59 LB102:79 LB102:86; missed none; false none

# %%
#| include: false
import numpy as np
import matplotlib as mpl
import matplotlib.pyplot as plt
import seaborn as sns
import pandas as pd

plt.rcParams['figure.dpi'] = 200

np.set_printoptions(
  edgeitems=30, linewidth=60,
  precision = 5, suppress=True
)

# %%
import jax
jax.__version__

# %%
import jax.numpy as jnp

x_jnp = jnp.linspace(0, 5, 51)
y_jnp = 2 * jnp.sin(x_jnp) * jnp.cos(x_jnp)
plt.plot(x_jnp, y_jnp)

# %%
jax.config.update("jax_enable_x64", True)

# %%
key = jax.random.PRNGKey(1234)
x_jnp = jax.random.normal(key, (1000,1000))
x_np = np.array(x_jnp)

# %%
#| eval: false
%timeit y = x_np @ x_np

# %%
#| eval: false
%timeit y = x_jnp @ x_jnp

# %%
#| eval: false
%timeit y = 3*x_np + x_np

# %%
#| eval: false
%timeit y = 3*x_jnp + x_jnp

# %%
def SELU_np(x, α=1.67, λ=1.05):
  "Scaled Exponential Linear Unit"
  return λ * np.where(x > 0, x, α * np.exp(x) - α)

# %%
def SELU_jnp(x, α=1.67, λ=1.05):
  "Scaled Exponential Linear Unit"
  return λ * jnp.where(x > 0, x, α * jnp.exp(x) - α)

# %%
#| eval: false
x = np.arange(1e6)
%timeit y = SELU_np(x)

# %%
#| eval: false
x = jnp.arange(1e6)
%timeit y = SELU_jnp(x)

# %%
SELU_jnp_jit = jax.jit(SELU_jnp)

# %%
#| eval: false
%timeit y = SELU_jnp_jit(x)
