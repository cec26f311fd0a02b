# source: https://github.com/jax-ml/jax/pull/2938
# title: Add implementation of np.searchsorted: jakevdp's benchmark script for the new `jnp.searchsorted` against NumPy's over 20 array sizes from 10 to 10**8, each timed with a `timeit.Timer` helper that takes the minimum per-loop time of `autorange()` and two more `timeit(N)` runs, the JAX statement ending in `.block_until_ready()`
# established-by: maintainer jakevdp (the PR's author, whose benchmark this is: 'comparable to numpy on CPU for large inputs, with ~ms scale overhead dominating for smaller inputs')
# cause: Correct benchmark code. Each size is first run once outside the clock (`result1 = searchsorted(x, val)`, checked against NumPy), so the new shape's trace and compile happen before any timing, and the `autotime` helper would absorb a compile anyway: `Timer.autorange()` keeps raising `number` until one run takes 0.2 s and returns only that last trial, and the reported figure is the minimum of that and two more `timer.timeit(N)` runs (a robust statistic over repeats, no LB104; `timeit` reads `perf_counter`, no LB105). The JAX statement is `searchsorted(x, val).block_until_ready()` (no LB102); the NumPy copies `onp.array(x)`, `onp.array(val)` are made once in the globals dict, outside the timed statement (no LB115). The sizes change on purpose, one compile per size, each warmed before it is timed: a sweep over sizes, not a retrace in a timed loop (no LB117). What the maintainer established is the figure itself: JAX's per-call overhead (milliseconds then) dominates small inputs, and the two are comparable for large ones. Code: the PR description's script as posted; `searchsorted` is the PR's new function (its import is not shown in the script), and the trailing Altair chart of `df` (`alt.Chart(df).transform_fold(...)`, cut off in the stored copy) is left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: fb4008d 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax.numpy as jnp
import numpy as onp
import pandas as pd
import altair as alt
import timeit

Nrange = (10 ** onp.linspace(1, 8, 20)).astype(int)
M = 10000

onp_times = []
jnp_times = []

def autotime(code, globals, repeat=3):
    timer = timeit.Timer(code, globals=globals)
    N, t = timer.autorange()
    return min([t / N] + [timer.timeit(N) for i in range(repeat - 1)])

data = jnp.arange(Nrange[-1])


for N in Nrange:
  x = data[:N]
  val = jnp.linspace(0, N, M).astype('int32')

  result1 = searchsorted(x, val)
  result2 = onp.searchsorted(onp.array(x), onp.array(val))
  assert onp.allclose(result1, result2), f"Failed for {N}"

  code = "searchsorted(x, val)"
  jnp_globals = {'searchsorted': jnp.searchsorted, 'x': x, 'val': val}
  onp_globals = {'searchsorted': onp.searchsorted, 'x': onp.array(x), 'val': onp.array(val)}

  jnp_times.append(autotime(code + ".block_until_ready()", jnp_globals))
  onp_times.append(autotime(code, onp_globals))

df = pd.DataFrame({
    'N': Nrange,
    'numpy': onp_times,
    'jax': jnp_times
})
