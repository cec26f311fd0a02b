# source: https://github.com/jax-ml/jax/blob/877b95ff262f2d311a1a250837a34b6754ed4cae/README.md
# title: JAX README (2019), 'Compilation with jit': `%timeit -n10 -r3` of `fast_f = jit(slow_f)` against the unjitted `slow_f`, '~ 4.5 ms / loop on Titan X' against '~ 14.5 ms / loop (also on GPU via JAX)'
# established-by: maintainer gnecula (jax-ml/jax#1988, of `%timeit -n10 -r3 foo_jit(...)`: 'jit functions dispatch the computation to the device but do not wait for the result themselves ... You have to add `.block_until_ready()` if you want to measure the time until the result is ready'; jax-ml/jax#998 by adarob made the same fix in the quickstart)
# cause: The README's jit example times the jitted and the eager function with `%timeit -n10 -r3`, and neither statement waits for its result: on the Titan X of the comments both figures are dispatch plus whatever the queue forced, the fault gnecula named for the same `%timeit -n10 -r3` shape in jax-ml/jax#1988 and jax-ml/jax#998 fixed in the quickstart, so the 3x the comments report is not the fusion the comment credits. `-n10 -r3` also turns %timeit's calibration runs off, and `fast_f` is not called before its timing: its trace and compile land in the first of the 30 timed calls, inside the first of the three runs whose mean %timeit reports (case 148's `-n5` was read as a best-of-5 figure, which one compiling call does not decide; a mean of three runs is). The eager `slow_f` compiles its element-wise operations on first use too, JAX's own operations (not LB103, as for case 197). The same block, without the figures, is still the README's jit example. Code: the README's 'Compilation with jit' block as posted at commit 877b95f, the rest of the README dropped.
# static: LB102, LB103
# dynamic: n/a
# inferred: LB103 (`-n10 -r3` turns off the calibration runs that absorb the compile, and no call of `fast_f` precedes its timing; the README and jax-ml/jax#1988 do not discuss it)
# lines: LB102:20/21, LB103:20
# first-sight: 12e883c 2026-12-06 py: found LB102:20 LB103:20 LB102:21; missed none; false none | notebook: found LB102:20 LB103:20 LB102:21; missed none; false none

import jax.numpy as np
from jax import jit

def slow_f(x):
  # Element-wise ops see a large benefit from fusion
  return x * x + x * 2.0

x = np.ones((5000, 5000))
fast_f = jit(slow_f)
%timeit -n10 -r3 fast_f(x)  # ~ 4.5 ms / loop on Titan X
%timeit -n10 -r3 slow_f(x)  # ~ 14.5 ms / loop (also on GPU via JAX)
