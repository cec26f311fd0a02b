# source: https://github.com/pymc-devs/pytensor/issues/935
# title: Reductions along leading axes can be incredibly slow in C and Numba backends: `timeit` of a 256^3 sum along each axis compiled by PyTensor for C, Numba and JAX, the JAX function wrapped as `lambda: np.asarray(jax_fn_())`, against `np.sum`
# established-by: maintainer ricardoV94 (PyTensor's maintainer reporting his own benchmark, about the C and Numba backends; the issue is closed)
# cause: The issue is about the C and Numba backends, and the timing of those is sound (every function is called once in the `assert_allclose` checks before `timeit`, and ten runs are averaged). The JAX side is waited for by conversion: `jax_fn` returns `np.asarray(jax_fn_())`, so every timed run copies the 256x256 result from the device to a NumPy array inside the timing (the catalogue's LB115: `np.asarray` in a timed region; `jax.block_until_ready`, imported and unused, would wait without the copy). On this CPU run the copy is small beside the axis-0 reduction, but the figure compared with C, Numba and NumPy is JAX plus a transfer. No one discussed it; the reading is the catalogue's. Code: the snippet as posted, with the output after it left out.
# static: LB115
# dynamic: n/a
# inferred: LB115 (the JAX result is converted with `np.asarray` inside every timed run; not discussed)
# lines: LB115:31/39
# first-sight: aea0196 2026-12-06 py: found none; missed LB115:31/39; false none | notebook: found none; missed LB115:31/39; false none

from timeit import timeit
from functools import partial

import pytensor
import pytensor.tensor as pt
import numpy as np

from jax import block_until_ready

N = 256
r = 10

x_test = np.random.uniform(size=(N, N, N))
x = pytensor.shared(x_test, name="x", shape=x_test.shape)

for axis in [0, 1, 2]:    
    y = x.sum(axis)    
    c_fn = pytensor.function([], y, mode="FAST_RUN")
    numba_fn = pytensor.function([], y, mode="NUMBA")
    jax_fn_ = pytensor.function([], y, mode="JAX")
    jax_fn = lambda : np.asarray(jax_fn_())
    numpy_fn = partial(np.sum, x_test, axis=axis)
    
    np.testing.assert_allclose(c_fn(), numpy_fn())
    np.testing.assert_allclose(numba_fn(), numpy_fn())
    np.testing.assert_allclose(jax_fn(), numpy_fn())
    print(f"\n{axis=}")
    for name, fn in [("C", c_fn), ("numba", numba_fn), ("jax", jax_fn), ("numpy", numpy_fn)]:
        print(f"  | {name}: {timeit(fn, number=r) / r: .4f}s")       
