# source: https://github.com/patrick-kidger/equinox/issues/970
# title: Large performance gap with conv: a depthwise `eqx.nn.Conv2d` (512 groups) vmapped and jitted with `eqx.filter_jit`, warmed with ten calls, then 50 calls each converted with `np.array` timed as one `time.time()` interval against the same loop in PyTorch, 3x to 5x slower on a Zen 2 Ryzen CPU
# established-by: maintainer jax-ml (the issue opens by naming jax-ml/jax#23713, the same depthwise-convolution gap on CPU measured with Flax NNX, which the JAX team labelled `bug`: the slowness is XLA:CPU's grouped convolution; the Equinox issue is closed, and its replies could not be read here)
# cause: The gap the reporter asks about is XLA:CPU's depthwise convolution (the linked jax-ml/jax#23713, a bug by the JAX team's label, on which this reporter posted the same TensorFlow, PyTorch and JAX comparison, also with `dim=64`). The timing is otherwise sound for a loop: `fwd_jax` is compiled by the ten warm-up calls before the clock starts, the input is a device array made by `jnp.array` before the timing, and the 50 calls are read as one interval. What a correct doctor reports, by the catalogue: every timed call is waited for by `np.array(...)`, which copies the 512x124x124 float32 result (31 MB) from the device to a new NumPy array inside the timing, so the JAX figure is the convolution plus a host copy per call (LB115, the catalogue's `np.asarray` in a timed region, case 285's reading), and the interval is read with `time.time()`, the wall clock (LB105, at the start read). One interval around 50 calls is a loop, not a single sample (no LB104). The ten warm-up calls are not waited for, so the first timed conversion also waits for whatever of them is still queued; the catalogue has no code for a warm-up that spills into the timing, and it is not labelled. Code: the issue's JAX script as posted; its PyTorch twin, the second code block, is cut off in the stored copy and left out.
# static: LB115, LB105
# dynamic: n/a
# inferred: LB115 (the result is copied to a NumPy array inside every timed call; not discussed in what could be read), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB115:44, LB105:42
# first-sight: 35efc1f 2026-12-06 py: found LB105:42 LB115:44; missed none; false none | notebook: found LB105:42 LB115:44; missed none; false none

import equinox as eqx
import numpy as np
import jax
import jax.numpy as jnp

dim = 512
dwconv_jax = eqx.nn.Conv2d(
            in_channels=dim,
            out_channels=dim,
            kernel_size=3,
            stride=1,
            padding=1,
            use_bias=True,
            groups=dim,
            dilation=1,
            key=jax.random.key(0)
        )

dwconv_jax = eqx.filter_vmap(dwconv_jax)

@eqx.filter_jit
def fwd_jax(x):
    return dwconv_jax(x)

np_input = np.random.rand(1, dim, 124, 124).astype('float32')
jax_input = jnp.array(np_input)

import time
for _ in range(10):
    fwd_jax(jax_input)

start_time = time.time()
for _ in range(50):
    np.array(fwd_jax(jax_input))
jax_time = time.time() - start_time

print(f'JAX time: {jax_time}s')
