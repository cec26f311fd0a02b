# source: https://github.com/KeAWang/jax-t1d-simulator/blob/2946c53a91997dbc60b07caf635284952880e141/simglucose/speed_test.py
# title: jax-t1d-simulator's `simglucose/speed_test.py`: the UVA/Padova type 1 diabetes ODE right-hand side in JAX (`t1d_dynamics`, jitted) against the original NumPy implementation (`t1d_dynamics_np`), 100 calls each between `time.time()` reads, a speed-up factor printed, then a vmapped JAX step over 100 patients
# established-by: maintainer KeAWang (the simulator author's speed test, whose figures the README quotes: 'Speedup factor: 750.78', later 1948.83; no issue discusses them)
# cause: The JAX side is sound but for its clock: `t1d_dynamics` is `@jax.jit` in `simglucose.py`, called once ('# Compilation') and waited before the loop, and each of the 100 timed calls ends in `.block_until_ready()` (no LB102, no LB103); the vmapped step is warmed and waited the same way (its per-pass `jnp.tile` is eager work beside a compiled step, not LB114, the corpus's reading). The NumPy reference is not a NumPy run: it is handed the same arguments as the JAX side, `patient`, `params` and `controls` namedtuples of 0-d JAX arrays, `state` a JAX array and `Dbar` a JAX scalar (`initialize_patient` builds them with `jnp.array`/`jnp.asarray`), so every `x[0]`, `params.kmax * x[0]` and `if Dbar > 0:` in `t1d_dynamics_np` is an eager JAX operation dispatched on its own, many of them read back to the host by the `dxdt[i] = ...` stores into a NumPy array, a hundred-odd per call, 100 calls in the timed loop (LB114, at the timed `t1d_dynamics_np` call; 367's reading of a baseline handed JAX arrays in a timed Python loop, the catalogue's library-function form). The printed 'Speedup factor' divides this per-op dispatch cost by a compiled call. All three intervals are read with `time.time()` (LB105, at the three start reads). Code: the file as stored at commit 2946c53, unchanged.
# static: LB105, LB114
# dynamic: n/a
# inferred: LB105 (`time.time()` as the interval clock; not discussed), LB114 (the NumPy reference receives JAX arrays, so its scalar arithmetic runs op by op through JAX inside the timed loop; read from `simglucose.py`, not discussed)
# lines: LB105:39/48/67, LB114:50
# first-sight: fb4008d 2026-12-06 py: found LB105:39 LB105:48 LB105:67; missed LB114:50; false LB114:68 | notebook: found LB105:39 LB105:48 LB105:67; missed LB114:50; false LB114:68

import time
import jax
import jax.numpy as jnp
import simglucose

jax.config.update("jax_platform_name", "cpu")  # running on CPU is faster than GPU

key = jax.random.PRNGKey(0)

key, subkey = jax.random.split(key)
patient, init_state, params, unused_params = simglucose.initialize_patient(
    key, 0, False
)

planned_meal = jnp.array(0.0)

controls = simglucose.Controls(carbs=jnp.array(0.0), insulin=jnp.array(0.0))
state = init_state

carbs = controls.carbs  # CHO
new_planned_meal, to_eat = simglucose.eat(planned_meal, carbs)
Dbar = to_eat

num_iters = 100
# Compilation
dstate = simglucose.t1d_dynamics(
    patient, state, controls, None, params, to_eat
).block_until_ready()
start = time.time()
for _ in range(num_iters):
    dstate = simglucose.t1d_dynamics(
        patient, state, controls, None, params, to_eat
    ).block_until_ready()
end = time.time()
jax_time = (end - start) / num_iters
print("JAX Time elapsed per ODE step:", jax_time)

start = time.time()
for _ in range(num_iters):
    dstate_np = simglucose.t1d_dynamics_np(patient, state, controls, params, Dbar)
end = time.time()
np_time = (end - start) / num_iters
print("Numpy Time elapsed per ODE step:", np_time)

print(f"Speedup factor: {np_time / jax_time:.2f}")

vmap_t1d_dynamics = jax.vmap(simglucose.t1d_dynamics, (None, 0, None, None, None, None))
num_patients = 100
dstate = vmap_t1d_dynamics(
    patient,
    jnp.tile(state[None, :], (num_patients, 1)),
    controls,
    None,
    params,
    to_eat,
).block_until_ready()
start = time.time()
for _ in range(num_iters):
    dstate = vmap_t1d_dynamics(
        patient,
        jnp.tile(state[None, :], (num_patients, 1)),
        controls,
        None,
        params,
        to_eat,
    ).block_until_ready()
end = time.time()
vmap_time = (end - start) / num_iters
print("JAX Time elapsed per vmapped ODE step (100 patients):", vmap_time)
print(
    f"Vmap speedup over sequential looping: {num_patients * jax_time / vmap_time: .2f}"
)
