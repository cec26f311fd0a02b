# source: https://github.com/kemasuda/jnkepler/issues/18
# title: Severe CPU slowdown on JAX >=0.4.32 due to thunk runtime (the benchmark the issue quotes: tests/unittests/jaxttv/runtime.py)
# established-by: maintainer kemasuda (the author of issue #18, with the figures of this script under jax 0.4.31, 0.4.32 and 0.4.32 with the old runtime; the cause tracked upstream in jax-ml/jax#26145)
# cause: The transit-time model and its jitted gradient ran 2x and 14x slower on JAX 0.4.32 and later because the new CPU thunk runtime adds overhead to programs made of many small kernels (an orbit integration with `lax.scan`, worse for the gradient); `XLA_FLAGS=--xla_cpu_use_thunk_runtime=false` brought the old figures back (val ~1.4 ms, grad ~7.0 ms per loop). The script itself warms both callables up before timing them with `timeit` over 200 loops; beyond the issue, neither timed statement waits for its JAX result, so the last calls' work is not in the figure. Code: the file as stored (commit 1e2ec59), in pytest form.
# static: LB102
# dynamic: n/a
# inferred: LB102 (the two `timeit` statements call JAX functions 200 times and never block on the result; not discussed); the established cause, a CPU runtime regression, has no static code
# lines: LB102:42/62
# first-sight: eec90bb 2026-12-03 py: found LB102:62; missed none; false none | notebook: found LB102:62; missed none; false none

#%%
import pytest
import glob
import pandas as pd
import numpy as np
from jnkepler.jaxttv import JaxTTV
from jnkepler.jaxttv.utils import params_to_elements
from jax import grad, jit
import jax.numpy as jnp
import pkg_resources
import timeit

#%%
path = pkg_resources.resource_filename('jnkepler', 'data/')

#%%
def test_runtime():
    pltag = 'kep51'
    p_init = [45.155305, 85.31646, 130.17809]
    d = pd.read_csv(path+"%s_ttv.txt"%pltag, sep=r'\s+', header=None, names=['tnum', 'tc', 'tcerr', 'dnum', 'planum'])
    tcobs = [np.array(d.tc[d.planum==j+1]) for j in range(3)]
    params_test = np.loadtxt(glob.glob(path+"%s*params.txt"%pltag)[0])
    tc_test = np.array(pd.read_csv(glob.glob(path+"%s*tc.csv"%pltag)[0])).ravel()

    dt = 1.0
    t_start, t_end = 155., 2950.
    jttv = JaxTTV(t_start, t_end, dt, tcobs, p_init, print_info=False)
    elements, masses = params_to_elements(params_test, jttv.nplanet)
    _, _ = jttv.get_transit_times_obs(elements, masses)

    names, loop = {**globals(), **locals()}, 200
    result = timeit.timeit('jttv.get_transit_times_obs(elements, masses)', globals=names, number=loop)
    result_str = "%.2f ms per loop (%d loops)"%(result / loop * 1000, loop)
    print ("# JaxTTV (NR) timeit:", result_str)

    """ interpolation
    jttv = JaxTTV(t_start, t_end, dt)
    jttv.set_tcobs(tcobs, p_init, print_info=False)
    jttv.transit_time_method = 'interpolation'
    _, _ = jttv.get_ttvs(*params_to_elements(params_test, jttv.nplanet))

    names, loop = {**globals(), **locals()}, 200
    result = timeit.timeit('jttv.get_ttvs(*params_to_elements(params_test, jttv.nplanet))', globals=names, number=loop)
    result_str = "%.2f ms per loop (%d loops)"%(result / loop * 1000, loop)
    print ("# JaxTTV (interp) timeit:", result_str)
    """

    func = lambda elements, masses: jnp.sum(jttv.get_transit_times_obs(elements, masses)[0])
    gfunc = jit(grad(func, argnums=(0,1)))
    _ = gfunc(elements, masses)
    names = {**globals(), **locals()}
    result = timeit.timeit('gfunc(elements, masses)', globals=names, number=loop)
    result_str = "%.2f ms per loop (%d loops)"%(result / loop * 1000, loop)
    print ("# JaxTTV (NR) gradient timeit:", result_str)

#%%
if __name__ == '__main__':
    test_runtime()
