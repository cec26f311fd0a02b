# source: https://andrewcharlesjones.github.io/journal/jax-jit.html
# title: Andy Jones's blog post 'Just-in-time compilation and JAX': `add` (one `jnp.add`) against `add_jitted = jax.jit(add)`, each called n times in a list comprehension for n from 10 to 10,000, five repeats, every batch between two `time.time()` reads, plotted as 'add_jitted is a constant amount of time faster than add'
# established-by: maintainer andrewcharlesjones (the post's author, Andy Jones, then a CS PhD student at Princeton, on his own blog; no comment or reply discusses its timing, which is read here by the catalogue and the corpus's readings)
# cause: The post times JAX calls the way the JAX documentation says not to, and reads the difference as the cost of the Python interpreter. What a correct doctor reports, by the catalogue and the corpus's readings: neither list comprehension waits for what it dispatched (JAX returns futures; the list of results is never blocked on before the second clock read), so both figures are dispatch, the eager `jnp.add` one op-dispatch per call and the jitted one a compiled call each (LB102 at both timed statements, the readings of 240 and 387: the fault jax-ml/jax#998 fixed in the quickstart); `add_jitted` is first called inside the first JIT timing (ii=0, n=10), so that figure also holds the trace and compile (LB103 at the jitted statement, 368's and 302's reading of a first loop pass); and every interval is read with `time.time()` (LB105 at both start reads). Each cell of the 5 x 6 grid is one batch, repeated five times and plotted, so no LB104; the eager `add` is the post's deliberate baseline (no LB114, 299's reading). The snippet as posted calls `add()` and `add_jitted()` with no arguments and uses `onp` and `time` without importing them, so it cannot have produced the plotted figures as written (a sketch of the code that did); the labels are for what it times as written, and a correct doctor need not report the missing arguments or imports (no LB code for them; `onp` is a name, not an import, so no LB113). Code: the post's three Python blocks in order, one `# %%` cell each, tabs kept (the C and shell blocks and the prose left out).
# static: LB102, LB103, LB105
# dynamic: n/a
# inferred: LB102 (neither list of JAX results is waited for before the clock is read; not discussed), LB103 (the first JIT batch holds `add_jitted`'s trace and compile; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:31/38, LB103:31, LB105:30/37
# first-sight: 858cce0 2026-12-06 py: found LB105:30 LB102:31 LB105:37 LB102:38; missed LB103:31; false none | notebook: found LB105:30 LB102:31 LB105:37 LB102:38; missed LB103:31; false none

# %%
import jax.numpy as np
def add(a, b):
	return np.add(a, b)

# %%
import jax
add_jitted = jax.jit(add)

# %%
n_repeats = 5
n_range = [10, 100, 500, 1000, 5000, 10000]
nojit_times = onp.zeros((n_repeats, len(n_range)))
jit_times = onp.zeros((n_repeats, len(n_range)))

for ii, n in enumerate(range(n_repeats)):
	for jj, n in enumerate(n_range):

		# JIT
		start_time = time.time()
		[add_jitted() for _ in range(n)]
		end_time = time.time()

		jit_times[ii, jj] = end_time - start_time

		# No JIT
		start_time = time.time()
		[add() for _ in range(n)]
		end_time = time.time()

		nojit_times[ii, jj] = end_time - start_time
