# source: https://github.com/google/brax/issues/349
# title: brax very slow?
# established-by: maintainer oarriaga (answered with the same loop over `jax.jit(env.reset)` and `jax.jit(env.step)`, which runs fast; maintainer btaba closed the issue on it)
# cause: `e.reset` and `e.step` are called without `jax.jit`, so every environment step runs the physics op by op outside any compiled program (and compiles each primitive it meets on first use): 15-30 s a step on CPU and GPU alike. The maintainer's fix jits both once and calls the jitted functions in the loop. The timings also measure less than they claim: no result is waited for before the clock is read, and the reset figure is one sample of one cold call. The `torch.rand(..., device=device)` in the timed loop is not labelled: its tensor is handed to the JAX step through DLPack in the same region, and the thread did not discuss it. Code: the script as posted.
# static: LB114, LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (neither `e.reset`'s nor `e.step`'s state is waited for before `time.time()` is read; not discussed), LB104 (the reset figure is one sample of one call; not discussed), LB105 (time.time() as the interval clock; not discussed)
# lines: LB114:34, LB102:28/34, LB104:28, LB105:27/31
# first-sight: 7b74e08 2026-12-03 py: found LB105:31; missed LB102:28/34, LB104:28, LB114:34; false LB116:32 | notebook: found LB105:31; missed LB102:28/34, LB104:28, LB114:34; false LB116:32

import time
import random

import torch
from brax import envs
from brax.io import torch as torch_interface
import jax

device = "cuda" if torch.cuda.is_available() else "cpu"
print(f"Using device: {device}")

batch_size = 1
print(f"batch size is {batch_size}")
e = envs.create("halfcheetah", batch_size=batch_size, episode_length=None)  # type:ignore[arg-type]
seed = random.randint(0, 10_000)
jseed = jax.random.PRNGKey(seed)
t = time.time()
s = e.reset(jseed)
print(f"{time.time() - t:.3f} sec to RESET")
for i in range(5):
    t = time.time()
    action = torch.rand([batch_size, e.action_size], device=device, dtype=torch.float32)
    jax_action = torch_interface.torch_to_jax(action)
    s = e.step(state=s, action=jax_action)
    print(f"{time.time() - t:.3f} sec to STEP")
