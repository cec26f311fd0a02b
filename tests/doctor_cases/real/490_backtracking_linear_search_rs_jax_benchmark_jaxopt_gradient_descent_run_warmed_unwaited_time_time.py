# source: https://github.com/baranyildirim/backtracking-linear-search-rs/blob/e6130fe2ee6d67fc336e68ae55e63b98a1c133e7/jax_benchmark.py
# title: backtracking-linear-search-rs's `jax_benchmark.py`: a jaxopt `GradientDescent` solve of a jitted two-variable quadratic, run once untimed and then once between `time.time()` reads, the milliseconds printed, as the JAX side of a Rust line-search comparison
# established-by: maintainer baranyildirim (the repository's author; no issue discusses the benchmark's timing)
# cause: What a correct doctor reports, by the catalogue. The first `solver.run(x0)` is made before the clock and pays for tracing and compiling the solver's loop (no LB103). The timed `solver.run(x0)` returns jaxopt's `OptStep` of JAX arrays and nothing waits on it before `end = time.time()`, so on an accelerator the figure can stop at dispatch (LB102, at the timed call; the catalogue's reading of an unwaited JAX result between clock reads). The printed figure is that one warm call, a single sample (LB104, at the timed call, the first statement inside the clock pair; 489's reading of a warm one-sample figure), read with `time.time()` (LB105, at the start read). Code: the file at commit e6130fe, unchanged.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (the timed jaxopt `solver.run` result is not waited on before the end read), LB104 (one warm call is the whole figure), LB105 (`time.time()` start read); the catalogue's readings, not discussed
# lines: LB102:26, LB104:26, LB105:25
# first-sight: eed2924 2026-12-06 py: found LB105:25 LB104:26 LB102:26; missed none; false none | notebook: found LB105:25 LB104:26 LB102:26; missed none; false none

import jax
import jax.numpy as jnp
import jaxopt
import time

@jax.jit
def f(x):
    return 10. * x[0]**2 + 0.001 * x[1]**2

x0 = jnp.array([1., 1.])
solver = jaxopt.GradientDescent(f, acceleration=False)

result = solver.run(x0)

start = time.time()
result = solver.run(x0)
end = time.time()

print((end - start)*1000)