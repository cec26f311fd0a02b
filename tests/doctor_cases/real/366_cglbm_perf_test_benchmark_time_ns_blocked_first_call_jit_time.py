# source: https://github.com/dic-case-studies/cg-lbm/blob/11248ff06dd70243166e1c2c870cbffdacaf01a3/cglbm/test_utils.py
# title: cg-lbm (colour-gradient lattice Boltzmann in JAX): `test_utils.benchmark`, 100 blocked calls of a jitted LBM kernel each timed with `time.time_ns()`, the first reported as 'jit time' and the mean of the other 99 as 'op time', driven by the absltest suite `lbm_perf_test.py`
# established-by: maintainer dic-case-studies (the project's own performance tests; no issue discusses their timing)
# cause: The helper times every call on its own and waits for it (`block_until_ready` on the result, or on the first element of a returned tuple, which comes out of the same jitted call), keeps the first call's time apart as the compile ('jit time' is the first sample less the warm mean: a compile timed on purpose, not LB103) and reports the mean and spread of the 99 warm samples (no LB104). The kernels it is handed come from `cglbm/lbm.py`, where `eq_dist_phase_field` is `@jit`-decorated (the helper's own note says it assumes a jitted function), their inputs are drawn with `jax.random` on the device before the loop and the lattice constants of `cglbm/d2q9.py` are `jnp.array`s (no LB115). The one fault a correct doctor reports, by the catalogue and the corpus's reading of `time.time()`: the interval clock is `time.time_ns()`, the wall clock in nanoseconds, which can jump like `time.time()` (LB105, at the start read in the loop). `jnp.mean`/`jnp.std` of the Python list of times runs after the loop and times nothing. Code: two files of commit 11248ff as two cells: `cglbm/test_utils.py` (the `ParquetIOHelper` class and `load_sandbox_config`, which time nothing, left out) and `cglbm/lbm_perf_test.py` cut to its first two of thirteen tests, which all call the helper the same way.
# static: LB105
# dynamic: n/a
# inferred: LB105 (`time.time_ns()` as the interval clock; not discussed)
# lines: LB105:41
# first-sight: c16c112 2026-12-06 py: found none; missed LB105:41; false none | notebook: found none; missed LB105:41; false none

# %%
import jax
from jax import numpy as jnp
import time
from etils import epath

from cglbm.environment import System
import cglbm.config as cfg
from einops import rearrange


def load_test_config(path: str) -> System:
    full_path = epath.resource_path("cglbm") / f'test-data/{path}'
    sys = cfg.load_config(full_path)

    return sys


# Note: We are assuming the function passed is already JITed
# Note: The result can fluxtuate if observing something < 50us
# Note: We could use python's timeit
def benchmark(
    name: str, init_fn, fn, iter: int = 100
) -> float:

    key = jax.random.PRNGKey(42)
    init_state = init_fn(key)

    times = []
    for i in range(iter):
        t = time.time_ns() / 1000
        fn_call = fn(init_state)
        if type(fn_call) == tuple:
            fn_call[0].block_until_ready()
        else:
            fn_call.block_until_ready()
        times.append((time.time_ns() / 1000) - t)
    op_time = jnp.mean(jnp.array(times[1:]))
    op_time_std = jnp.std(jnp.array(times[1:]))

    print(f"""
    {name} jit time: {times[0] - op_time:.3f}us
    op time: {op_time:.3f} + {op_time_std:.3f} us,
    {jax.devices()[0].device_kind}
    """
    )

    return op_time

# %%
from absl.testing import absltest
import jax
from jax import numpy as jnp
import cglbm.test_utils as test_utils
from cglbm.lbm import *


class LBMPerfTest(absltest.TestCase):
    """Performance tests for LBM Methods
    Note:These are for reference actual numbers will go down after fusion
    """

    def test_perf_eq_dist_phase_field(self):
        system = test_utils.load_test_config("params.ini")

        def init_fn(rng):
            LX = system.LX
            LY = system.LY
            rng1, rng2 = jax.random.split(rng, 2)
            phi = jax.random.normal(rng1, (LY, LX))
            u = jax.random.normal(rng2, (LY, LX, 2))
            return {
                "phi": phi,
                "u": u
            }

        def step_fn(state):
            return eq_dist_phase_field(system.cXYs, system.weights, state["phi"], state["u"])

        test_utils.benchmark("benchmark eq dist phase field", init_fn, step_fn)

    
    def test_perf_grid_eq_dist(self):
        system = test_utils.load_test_config("params.ini")

        def init_fn(rng):
            LX = system.LX
            LY = system.LY
            rng1, rng2 = jax.random.split(rng, 2)
            phi = jax.random.normal(rng1, (LY, LX))
            u = jax.random.normal(rng2, (LY, LX, 2))
            return {
                "phi": phi,
                "u": u
            }

        def step_fn(state):
            return grid_eq_dist(system.cXYs, system.weights, system.phi_weights, state["phi"], state["u"])

        test_utils.benchmark("benchmark grid eq dist", init_fn, step_fn)


if __name__ == "__main__":
    absltest.main()
