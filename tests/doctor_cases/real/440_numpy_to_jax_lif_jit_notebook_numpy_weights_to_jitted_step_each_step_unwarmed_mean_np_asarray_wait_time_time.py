# source: https://github.com/IanQS/numpy_to_jax/blob/d667e9537e9391c3bd8b08a1f154cc77a878cc84/case_studies/leaky_integrate_and_fire/jax_leaky_integrate_and_fire_2_jit.ipynb
# title: IanQS/numpy_to_jax's case study 'The Leaky Integrate-and-fire', notebook 2 (`jit`): a jitted LIF network `update_step` called once per time step from a Python loop, `num_simulations` runs each timed with `time.time()` and converted with `np.asarray`, first with the NumPy weight matrix `W`, then with `jnp.asarray(W)` after the author finds the first version slower than NumPy
# established-by: maintainer IanQS (the tutorial author's notebook: its markdown after the first timing says '**Wait** this took more time than the numpy version, what gives? Jax's jit seems doesn't automatically convert our `np.ndarray` to `jnp.ndarray`. So, let's do so.')
# cause: The author established the first cell's slowness: `W` is the NumPy array loaded from `weights.npy`, and the timed `run_simulation(W, ...)` hands it to the jitted `update_step` on every time step, so every step copies the whole weight matrix to the device inside the timing (LB115, at the first timed call; 365's reading of NumPy inputs handed to a jitted function on every timed call). The fix in the second cell still makes the copy inside the clock, once per run, with `jnp.asarray(W)` as the argument of the timed call (LB115, at the second timed call). Both cells wait with `np.asarray(spike_train)`, which copies every step's spike vector to the host inside the timing (LB115, at both lines; 285's reading of an `np.asarray` wait in a timed run), so no LB102. The first run of the first cell is the first call of `update_step`, whose trace and compile land in it, and the mean and standard deviation over `num_simulations` runs include that run (LB103, at the first timed call; the catalogue's 'an average over a loop is inflated by it'); the second cell runs after it, at the same shapes and dtypes, so no LB103 there. Both cells clock with `time.time()` (LB105, at the two start reads). Each figure is the mean and spread of `num_simulations` runs (no LB104). The Python loop over time steps calls a compiled step with eager `jnp.arange` iteration beside it, the notebook's subject before notebook 3 turns it into `lax.scan` (no LB114: eager work beside compiled steps). Code: the notebook's code cells as stored at commit d667e95, unchanged; its markdown cells are left out and quoted here.
# static: LB103, LB105, LB115
# dynamic: n/a
# inferred: LB103 (the first run compiles `update_step` and is in the mean; not discussed), LB105 (`time.time()` as the interval clock; not discussed), LB115 at lines 96/109/115 (the `np.asarray` waits and the in-clock `jnp.asarray(W)` copy; the author discussed only the NumPy `W` of the first cell)
# lines: LB103:91, LB105:90/109, LB115:91/97/110/116
# first-sight: fb4008d 2026-12-06 py: found LB105:90 LB103:91 LB115:91 LB105:109; missed none; false LB115:83 LB115:111 | notebook: found LB105:90 LB103:91 LB115:91 LB105:109; missed none; false LB115:83 LB115:111

# %%
import jax
import jax.numpy as jnp

from typing import TypeAlias
import time
import numpy as np

from lif_hparams import (
    _dt,
    _t_max,
    _tau_m,
    _V_reset,
    _V_thresh,
    _R,
    num_simulations
)

with open('weights.npy', 'rb') as f:
    W = np.load(f)


# Initial conditions
n_neurons = len(W)# Number of neurons in the network
_V = jnp.ones(n_neurons) * _V_reset  # Initial potentials

from tqdm.notebook import tqdm

# %%
Mat: TypeAlias = jnp.ndarray
Vec: TypeAlias = jnp.ndarray 

# %%
@jax.jit
def update_step(
        V, W,
        # Hyperparameters
        v_thresh, v_reset, dt, tau_m, membr_R):
    fired = V >= v_thresh
    V = jnp.where(fired, v_reset, V)
    
    # Update voltages
    I_syn = W.dot(fired)  # Synaptic current from spikes
    dV = (dt / tau_m) * (-V + v_reset + membr_R * I_syn)
    V += dV

    # No self-inputs; neurons cannot spike themselves in this timestep
    V = jnp.where(fired, v_reset, V)
    return V, fired


def run_simulation(
    W: Mat,
    V: Vec,

    # Neuron Parameters
    tau_m: float,
    v_reset: float,
    v_thresh: float,
    membr_R: float,

    # How long do we run for? 
    t_max: float,
    dt: float, 

):
    # Simulation

    spike_train = []
    for i, t in enumerate(jnp.arange(0, t_max, dt)):
        if i == 0:
            continue
        V, fired = update_step(V, W, v_thresh, v_reset, dt, tau_m, membr_R )
        spike_train.append(fired)

    return spike_train

time_arr = []
for i in range(num_simulations):
    start = time.time()
    spike_train = run_simulation(
        W,
        _V,
        _tau_m, _V_reset, _V_thresh, _R,
        _t_max, _dt
    )
    np.asarray(spike_train)
    end = time.time()
    #print(f"Iteration {i} took: {end - start} seconds")
    time_arr.append(end - start)

print(f"Average Time: {np.mean(time_arr)}")
print(f"S.Dev Time: {np.std(time_arr)}")

# %%

time_arr = []
for i in range(num_simulations):
    start = time.time()
    spike_train = run_simulation(
        jnp.asarray(W),
        _V,
        _tau_m, _V_reset, _V_thresh, _R,
        _t_max, _dt
    )
    np.asarray(spike_train)
    end = time.time()
    #print(f"Iteration {i} took: {end - start} seconds")
    time_arr.append(end - start)

print(f"Average Time: {np.mean(time_arr)}")
print(f"S.Dev Time: {np.std(time_arr)}")
