# source: https://github.com/chaobrain/brainmass/blob/20a14ce88e10ca62666954b3b7b0d22034bac908/docs/howto/batch_and_accelerate.ipynb
# title: brainmass how-to 'Batch and Accelerate': a Hopf-oscillator rollout timed op by op, with a jitted step, as one `for_loop` program and through `Simulator`
# established-by: maintainer chaobrain (brainmass's how-to guide: a bare Python loop dispatches op by op, jit compiles a step once, `for_loop` lowers the whole rollout into one program, and `block_until_ready` is needed for honest timing)
# cause: The guide's point holds: its uncompiled rollout calls the model's update 300 times outside any jit, one dispatch per JAX operation (the guide's own 'every call dispatches op-by-op'), and the jitted step and the `for_loop` program remove that cost. The timings wait for their results and warm every compiled path first. Beyond the guide: the `for_loop` figure (79.6 ms, printed as '55x vs uncompiled') and the `Simulator` figure (103.6 ms) are each one `perf_counter` sample of one call, with no repeat to judge them by, while the two loop timings are totals over 300 calls. Code: the guide's code cells that set up and time the rollouts, markdown and outputs dropped (notebook as stored at commit 20a14ce).
# static: LB114, LB104
# dynamic: n/a
# inferred: LB104 (each of the two figures is one sample of one warm call; not discussed); LB114 is the guide's own op-by-op baseline, placed at the unjitted call inside the timed loop as in case 196
# lines: LB114:45, LB104:73/83
# first-sight: f3b9bd0 2026-12-05 py: found LB104:73 LB104:83; missed LB114:45; false none | notebook: found LB104:73 LB104:83; missed LB114:45; false none

%matplotlib inline
import warnings
import time
import numpy as np
import matplotlib.pyplot as plt
import jax
import jax.numpy as jnp
import brainstate
import braintools
import brainunit as u
import brainmass
from brainmass import objectives
from brainstate.nn import Param
brainstate.environ.set(dt=0.1 * u.ms)
brainstate.random.seed(0)
# %%
node = brainmass.HopfStep(in_size=64, a=0.25, w=0.3)
node.init_all_states()

def step_uncompiled(i):
    with brainstate.environ.context(i=i, t=i * 0.1 * u.ms):
        node.update()
    return node.x.value

step_jit = brainstate.transform.jit(step_uncompiled)

n = 300
# warm up the compiled version (first call traces + compiles)
_ = step_jit(0); jax.block_until_ready(node.x.value)

# uncompiled: every call dispatches op-by-op
node.init_all_states()
t0 = time.perf_counter()
for i in range(n):
    step_uncompiled(i)
jax.block_until_ready(node.x.value)
t_uncompiled = time.perf_counter() - t0

# compiled: each call reuses the compiled program
node.init_all_states()
t0 = time.perf_counter()
for i in range(n):
    step_jit(i)
jax.block_until_ready(node.x.value)
t_jit = time.perf_counter() - t0

print(f"uncompiled : {t_uncompiled * 1e3:7.1f} ms")
print(f"jit        : {t_jit * 1e3:7.1f} ms")
print(f"speed-up   : {t_uncompiled / t_jit:6.1f}x")
# %%
node = brainmass.HopfStep(in_size=64, a=0.25, w=0.3)
node.init_all_states()

def step(i):
    with brainstate.environ.context(i=i, t=i * 0.1 * u.ms):
        node.update()
    return node.x.value

run = brainstate.transform.jit(lambda: brainstate.transform.for_loop(step, jnp.arange(n)))
xs = run(); jax.block_until_ready(xs)  # warm up

t0 = time.perf_counter()
xs = run(); jax.block_until_ready(xs)
t_forloop = time.perf_counter() - t0

print("for_loop output:", xs.shape, "(time, regions)")
print(f"for_loop   : {t_forloop * 1e3:7.1f} ms  ({t_uncompiled / t_forloop:.0f}x vs uncompiled)")
# %%
sim = brainmass.Simulator(node, dt=0.1 * u.ms)
res = sim.run(n * 0.1 * u.ms, monitors=['x'])  # warm up + compile

t0 = time.perf_counter()
res = sim.run(n * 0.1 * u.ms, monitors=['x'])
jax.block_until_ready(res['x'])
print("Simulator output:", res['x'].shape)
print(f"Simulator  : {(time.perf_counter() - t0) * 1e3:7.1f} ms")
