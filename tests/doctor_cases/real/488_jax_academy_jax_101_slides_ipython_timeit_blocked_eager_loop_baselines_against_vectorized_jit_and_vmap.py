# source: https://github.com/sanjaradylov/jax-academy/blob/a6d31500eeee05425170f8c065f8c5c22db36d13/jax.ipynb
# title: sanjaradylov/jax-academy's 'Jax 101' slides notebook (in Russian): three `%timeit` pairs, every statement waited with `.block_until_ready()`: a Python list comprehension of 5,000 eager `x[i] * jnp.pi` against `jnp.pi * x` (1.11 s against 6.32 us), eager `selu` against a warmed `jax.jit(selu)` on a scalar (36.2 us against 3.98 us), and a per-row loop `batched_scaled_dot` over 512 vectors against `jax.vmap(scaled_dot)` (44.3 ms against 857 us)
# established-by: maintainer sanjaradylov (the course author; the slides state what the loops are there to show: 'Как правило в разы быстрее, чем циклы' ('as a rule many times faster than loops') and, of `vmap`, 'Как правило, работает быстрее, чем for-цикл по каждому прецеденту' ('as a rule faster than a for loop over each example'))
# cause: The timing is sound as timing: every statement waits for its result, `%timeit` calibrates before its reported loops (no LB103), the jitted `selu` is warmed by a call before its `%timeit`, and all inputs are JAX arrays (no LB115). The two loop baselines are the slides' point, and by the corpus's reading of a baseline that dispatches op by op on purpose (239, brainmass's op-by-op rollout) a correct doctor still reports the dispatch repeated in the timed loop: 5,000 eager indexings and multiplies per `%timeit` run (LB114 at the first `%timeit`, where the comprehension is), and one eager `scaled_dot` (a dot, a sqrt, a divide) per row of `X` inside `batched_scaled_dot` (LB114 at the comprehension's call of `scaled_dot`, 239's place: the unjitted call inside the timed loop). The eager `selu` against `selu_jit` is one call each, not a loop (no LB114, 242's reading). Code: the notebook's import cell and its timed cells with the `scaled_dot` set-up cell at commit a6d3150, unchanged; the markdown slides, the `!pip` cell and the untimed cells (arrays, random keys, broadcasting, axes, `grad`) are left out.
# static: LB114
# dynamic: n/a
# inferred: LB114 at both loops (the per-element and per-row eager dispatch the slides time on purpose; labelled as in 239, where the guide's op-by-op baseline carries it)
# lines: LB114:17/41
# first-sight: d481e6f 2026-12-06 py: found LB114:17 LB114:41; missed none; false LB115:17 LB114:48 | notebook: found LB114:17 LB114:41; missed none; false LB115:17 LB114:48

# %%
import jax
from jax import numpy as jnp

# %%
x = jnp.linspace(0, 1, 5_000)
%timeit jnp.array([x[i] * jnp.pi for i in range(x.size)]).block_until_ready()
%timeit (jnp.pi * x).block_until_ready()

# %%
def selu(x, alpha=1.67, lambda_=1.05):
    return lambda_ * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)

selu_jit = jax.jit(selu)
key = jax.random.key(0)
x = jax.random.normal(key)
selu_jit(x)

%timeit selu(x).block_until_ready()
%timeit selu_jit(x).block_until_ready()

# %%
def scaled_dot(x):
    return jnp.dot(x, x) / jnp.sqrt(x.shape[0])

x = jnp.arange(10.0)
scaled_dot(x)

# %%
def batched_scaled_dot(x):  # Без векторизации, с помощью for-цикла.
    return jnp.stack([scaled_dot(x) for x in X])

vmap_scaled_dot = jax.vmap(scaled_dot)  # vmap-векторизация.

X = jnp.arange(2048.0).reshape((-1, 4))  # Батч из векторов размера 4.

%timeit batched_scaled_dot(X).block_until_ready()
%timeit vmap_scaled_dot(X).block_until_ready()
