# source: https://github.com/pymc-devs/pytensor/issues/122
# title: pymc-devs/pytensor#122 ('Consider not running fusion rewrite in JAX backend'): ricardoV94's IPython cell timing a PyTensor logp-and-gradient graph on 1,000,000 elements, compiled with `pytensor.function` in C mode (`FAST_RUN`) with and without the fusion rewrite and in JAX mode, each with `%timeit -n 500 np.asarray(func()[0])` right after the function is built
# established-by: maintainer ricardoV94 (the author; closed by his pull request pymc-devs/pytensor#370, 'Don't run useless fusion and inplace rewrites in JAX mode')
# cause: The thread established that PyTensor's fusion rewrite does nothing for the JAX backend: XLA fuses the elementwise graph itself (the post: 'AFAICT it doesn't seem to affect performance whatsoever, probably because JAX produces "fused" graphs itself'), so #370 stopped running it there. What a correct doctor reports on the cell, by the catalogue: in JAX mode `pytensor.function` wraps the graph in `jax.jit`, which traces and compiles on the first call, and nothing calls `func` before `%timeit -n 500` (with `-n` IPython skips its calibration runs), so the compile lands in the first of the seven runs of 500 loops (LB103 at the JAX-mode `%timeit`, inferred; 246's reading of `%timeit -n 5 -r 5` on a cold jitted function). Not labelled: `np.asarray(...)` brings the output to the host in every loop (no LB102); the C-mode functions are compiled by `pytensor.function` itself, before timing, and are not JAX; the shared variables live in the function, so nothing is copied from NumPy per call. Trimmed: the stored thread cuts the post inside its last block (JAX mode with `excluding("fusion")`, whose `%timeit` reads the same way); the case ends at the third `%timeit` and the `print` after it. Code otherwise as posted, the figures in its comments included.
# static: LB103
# dynamic: n/a
# inferred: LB103 (the JAX-mode function is timed with `%timeit -n 500` without a call before it; not discussed in the thread, whose question was the fusion rewrite)
# lines: LB103:39
# first-sight: e4a92af 2026-12-06 py: found none; missed LB103:39; false none | notebook: found none; missed LB103:39; false none

import pytensor
import pytensor.tensor as pt
from pytensor.compile.mode import get_mode
import numpy as np

rng = np.random.default_rng(123)
size = 1_000_000
x = pytensor.shared(rng.normal(size=size), name="x")
mu = pytensor.shared(rng.normal(size=size), name="mu")

logp = (- ((x - mu) **2) / 2)
grad = pt.grad(logp.sum(), x)

mode = "FAST_RUN"
print("\n", '-'*20, mode)
func = pytensor.function([], [logp, grad], mode=get_mode(mode))
pytensor.dprint(func)
%timeit -n 500 np.asarray(func()[0])  # 3.39 ms ± 139 µs per loop (mean ± std. dev. of 7 runs, 500 loops each)
print("")

func = pytensor.function([], [logp, grad], mode=get_mode(mode).excluding("fusion"))
pytensor.dprint(func)
%timeit -n 500 np.asarray(func()[0])  # 4.23 ms ± 150 µs per loop (mean ± std. dev. of 7 runs, 500 loops each)

mode = "JAX"
print("\n", '-'*20, mode)
func = pytensor.function([], [logp, grad], mode=get_mode(mode))
pytensor.dprint(func)
%timeit -n 500 np.asarray(func()[0])  # 2.32 ms ± 33 µs per loop (mean ± std. dev. of 7 runs, 500 loops each)
print("")
