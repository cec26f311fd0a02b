# source: https://github.com/matthewfeickert/talk-scipy-2021/blob/fe4d32ae16598649c9c85e75d0c0735016347bed/talk.md
# title: SciPy 2021 talk on pyhf and funcX, slide 'FaaS constraints and trade-offs': `%timeit selu(x)` against `%timeit selu_jit(x)`, captioned '50X speedup from JIT'
# established-by: maintainer adarob (jax-ml/jax#998, approved by froystig, added `block_until_ready` to the quickstart's `%timeit` cells 'for accurate timing'; the slide runs the quickstart's `selu` example without it)
# cause: The slide shows an IPython session timing JAX's quickstart `selu` on a million normal draws, unjitted (850 us) and jitted (17.2 us), and concludes '50X speedup from JIT'. Neither `%timeit` waits for the result, the fault jax-ml/jax#998 fixed in the quickstart itself: JAX dispatches asynchronously, so 17.2 us is the dispatch of one compiled call rather than its execution, and the ratio mixes the eager function's per-operation dispatch with the jitted one's single dispatch. The unjitted `selu` does run its operations one by one (the quickstart's reason to jit it), which the runnable copy shows. Code: the slide's code block with its IPython prompts, the printed timings dropped, one cell per prompt.
# static: LB102
# dynamic: LB240
# inferred: LB240 (the runnable copy's unjitted `selu` dispatches each of its operations on its own; the slide's comparison rests on it but does not name it)
# lines: LB102:22/26
# first-sight: f3b9bd0 2026-12-05 py: found LB102:22 LB102:26; missed none; false none | notebook: found LB102:22 LB102:26; missed none; false none

# %%
In [1]: import jax.numpy as jnp
   ...: from jax import jit, random
# %%
In [2]: def selu(x, alpha=1.67, lmbda=1.05):
   ...:     return lmbda * jnp.where(x > 0, x, alpha * jnp.exp(x) - alpha)
   ...:
# %%
In [3]: key = random.PRNGKey(0)
   ...: x = random.normal(key, (1000000,))
# %%
In [4]: %timeit selu(x)
# %%
In [5]: selu_jit = jit(selu)
# %%
In [6]: %timeit selu_jit(x)
