# source: https://github.com/JiaYaobo/fenbux/issues/7
# title: JiaYaobo/fenbux#7 ('Speed vs Distrax'): fenbux's `logpdf` of a Normal against distrax's `log_prob` on 1,000,000x2 arrays on a GeForce 4090, each timed with `timeit.timeit` of a statement string, `number=1000`, whose setup string builds the inputs and wraps both functions in `jit` without calling them
# established-by: maintainer JiaYaobo (answered the next day, a reply cut off in the stored thread; the follow-up pull request JiaYaobo/fenbux#8, 'Optimize `normal_logpdf`', changed the library, not the benchmark)
# cause: The user read 'Febux Test Time: 0.101' against 'Distrax Test Time: 0.085' (seconds for 1000 runs) as fenbux being slower, and the maintainer took the gap as the library's (#8 optimised `normal_logpdf`); nobody in the thread discussed how it was timed. What a correct doctor reports, by the catalogue: the setup string only wraps `febux_test` and `distrax_test` in `jit`; nothing calls them before `timeit` starts its clock, so the first of the 1000 timed executions traces and compiles (LB103 at each `timeit.timeit(` call; at about 0.1 s for the whole thousand, a compile of tens of milliseconds is a large part of each total, and each `timeit` call runs the setup string again, so each side compiles inside its own timing). Not labelled: every statement waits with `.block_until_ready()` (no LB102); `timeit`'s clock is `perf_counter` (no LB105); one total over 1000 runs is not a single sample (no LB104, 459's reading of `timeit(number=10)`); the inputs are drawn with `jax.random` on the device in the setup (no LB115). The JAX code lives in a string: the doctor has to read `setup=` to see it. Code: the script, unchanged.
# static: LB103
# dynamic: n/a
# inferred: LB103 (the setup string never calls the jitted functions, so the compile lands in the first timed run; not discussed in the thread)
# lines: LB103:39/43
# first-sight: e4a92af 2026-12-06 py: found none; missed LB103:39/43; false none | notebook: found none; missed LB103:39/43; false none

import timeit

def setup_code():
    return '''
from jax import jit
from jax import random as jr
from fenbux import logpdf
from fenbux.univariate import Normal
import distrax

key = jr.PRNGKey(0)
x_key, y_key, z_key = jr.split(key, 3)

mean = jr.normal(x_key, (1000000, 2))
sd = jr.normal(y_key, (1000000, 2))
y_k = jr.normal(z_key, (1000000, 2))

def febux_test(mean, sd, y_k):
    return logpdf(Normal(mean=mean, sd=sd), y_k).sum()

def distrax_test(mean, sd, y_k):
    return distrax.Normal(loc=mean, scale=sd).log_prob(y_k).sum()

jit_febux_test = jit(febux_test)
jit_distrax_test = jit(distrax_test)
'''


febux_time = timeit.timeit('jit_febux_test(mean, sd, y_k).block_until_ready()',
                           setup=setup_code(), number=1000)

# Timing distrax_test
distrax_time = timeit.timeit('jit_distrax_test(mean, sd, y_k).block_until_ready()',
                             setup=setup_code(), number=1000)

print("Febux Test Time:", febux_time)
print("Distrax Test Time:", distrax_time)
