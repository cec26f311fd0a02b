# source: https://github.com/ShawonAshraf/jax_examples/blob/67a5937479d64697d436eb3ef277905f4145db5e/05_jit.ipynb
# title: jax_examples 05_jit.ipynb: `%time` of `f`, of `jit(f)` and of an `@jit`-decorated `f`, read as jit's speed-up ('See that wall time difference? That's like real fast!')
# established-by: answer by the notebook's author ShawonAshraf (its reading of the four `%time` wall times, 404 ms, 163 ms, 68 ms and 0 ns: jit is faster, and the last is fast 'because the function is already compiled and cached')
# cause: The notebook attributes falling `%time` figures to jit. None of the four timed calls waits for its result (`%time` stops the clock when the call returns; the array is printed after), so each figure is dispatch plus whatever ran synchronously: the eager `f(x)` pays the first-use compile of `sin`, `cos` and `add`, `%time f_with_jit(x)` and the first `%time f(x)` after `@jit` are first calls of a newly jitted function and hold its tracing and compilation (the decorated `f` is a new function object, so nothing was 'already compiled and cached' for it), and the last `%time f(x)` is a warm call whose unwaited dispatch reads 0 ns. The speed-up the notebook reports is compile times and dispatch, not jit's execution speed. Code: the notebook's code cells as stored (commit 67a5937), one cell each, markdown and outputs dropped.
# static: LB102, LB103
# dynamic: n/a
# inferred: LB102 (no timed result is waited for), LB103 (the two first calls of jitted functions; the eager first call's compile of JAX's own operations is not LB103, as for case 197); a `%time` line is not labelled as a single sample, as the corpus does not (cases 020, 083, 140)
# lines: LB102:23/27/35/37, LB103:27/35
# first-sight: f3b9bd0 2026-12-05 py: found LB102:23 LB102:27 LB103:27 LB102:35 LB102:37; missed none; false none | notebook: found LB102:23 LB102:27 LB103:27 LB102:35 LB102:37; missed none; false none

import jax as J
from jax import jit, random
import jax.numpy as jnp
# %%
key = random.PRNGKey(123)

x = random.normal(key, shape=(9, ))
x
# %%
def f(x):
    return jnp.sin(x) + jnp.cos(x)

%time f(x)
# %%
f_with_jit = jit(f)

%time f_with_jit(x)
# %%
416 / 172
# %%
@jit
def f(x):
    return jnp.sin(x) + jnp.cos(x)

%time f(x)
# %%
%time f(x)
# %%
from jax import make_jaxpr
# %%
make_jaxpr(f)(x)
