# source: https://github.com/hctomkins/jax-monohull-dynamics/blob/02b351874007d09c014fc21c438fe9e0f6f1c433/tests/test_e2e.py
# title: jax-monohull-dynamics' `tests/test_e2e.py`: a sailing-boat simulator's step timed per step with `time.time()` three ways, ten un-jitted steps, a jitted step whose first call sits inside the clock before 1,000 more, and one warmed `lax.fori_loop` of 10,000 steps, then that loop traced with `jax.profiler.trace`
# established-by: maintainer hctomkins (the repository author's end-to-end test; no issue discusses its timing)
# cause: The test compares an eager step, a jitted step (`j_step_uncontrolled = jax.jit(step_uncontrolled, static_argnums=(3,))` in the package's `dynamics/boat.py`) and a jitted `lax.fori_loop` of steps (`j_integrate_many`, `N` static). What a correct doctor reports, by the catalogue and the corpus's readings: no timed block waits for its result before the second clock read, so each 'time per step' can stop at dispatch (LB102, at the timed call of each block: the eager step in the first loop, the jitted step in the second, the `j_integrate_many` call in the third; 257's reading of an unwaited eager baseline); the second block reads its clock and then makes the first call of the jitted step, so the trace and compile fall inside the figure divided over 1,000 steps (LB103 at that first call, the warm-up placed one line too late); the third block is warmed by an untimed call with the same static `N`, but its figure is one call between two clock reads (LB104, at the first statement inside the clock pair); and every interval is read with `time.time()` (LB105, at the three start reads). The first block's eager step is the test's deliberate baseline beside its jitted twins, not op-by-op work to fix (no LB114, 299's reading); the second block is 1,001 calls in one interval, not one sample (no LB104 there). The closing `jax.profiler.trace` of one unwaited call is a profile, not a timed figure (noted, not labelled). Code: the file as stored at commit 02b3518, unchanged.
# static: LB102, LB103, LB104, LB105
# dynamic: n/a
# inferred: LB102 (no timed block waits for its result; not discussed), LB103 (the jitted step's first call is inside the second clock pair; not discussed), LB104 (the warmed fori_loop is one timed call; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB102:30/37/43, LB103:35, LB104:43, LB105:28/34/42
# first-sight: 0ba6573 2026-12-06 py: found none; missed LB102:30/37/43, LB103:35, LB104:43, LB105:28/34/42; false none | notebook: found none; missed LB102:30/37/43, LB103:35, LB104:43, LB105:28/34/42; false none

from monohull_dynamics.demo.demo import (
    init_simulation_state,
)
from monohull_dynamics.dynamics.boat import j_integrate_many, j_step_uncontrolled, step_uncontrolled
import jax.numpy as jnp
from jax import jit
import time
import jax.profiler


def test_e2e():
    sim_state = init_simulation_state()
    boat_state = sim_state.boat_state

    dt = 0.1

    N = 10
    t0 = time.time()
    for i in range(N):
        state = step_uncontrolled(boat_state, sim_state.force_model, sim_state.wind_velocity, dt)
    print(f"Time taken per un-jitted step: {(time.time()-t0)/N}")

    N = 1000
    t0 = time.time()
    j_step_uncontrolled(boat_state, sim_state.force_model, sim_state.wind_velocity, dt)
    for i in range(N):
        state = j_step_uncontrolled(boat_state, sim_state.force_model, sim_state.wind_velocity, dt)
    print(f"Time taken per jitted step: {(time.time()-t0)/N}")

    N = 10000
    j_integrate_many(boat_state, sim_state.force_model, sim_state.wind_velocity, dt, N)
    t0 = time.time()
    state = j_integrate_many(boat_state, sim_state.force_model, sim_state.wind_velocity, dt, N)
    print(f"Time taken per step in jitted loop: {(time.time()-t0)/N}")

    print("tracing")
    with jax.profiler.trace("jax-trace-step-annotate-interp"):
        state = j_integrate_many(boat_state, sim_state.force_model, sim_state.wind_velocity, dt, N)
        print("done")


if __name__ == "__main__":
    test_e2e()
