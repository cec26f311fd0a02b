# source: https://github.com/RISHYAVANDHAN/HPCmAI/blob/0b933a7a45932200958853f2c24bf6b084fbd804/benchmarks/advanced/cpu_vs_gpu_scaling.py
# title: HPCmAI's `benchmarks/advanced/cpu_vs_gpu_scaling.py` (a JAX-Fluids HPC study): a helper `test_backend` jits `sin(x) + exp(x)` on 10^7 points under `jax.default_device` and returns the `time.time()` interval of its first, waited call, printed once per device as the CPU and GPU 'JIT' figures
# established-by: maintainer RISHYAVANDHAN (the repository author's benchmark script; no issue discusses its timing)
# cause: The timing sits in a helper, `test_backend`, called once per device. Inside it the function is jitted fresh (`f_jit = jit(f)`) and its very first call is the one timed: tracing and XLA compilation are in the figure (LB103, at the timed call), and nothing in the code says the figure is a compile (the printed label is '(JIT)', the name of the mode, and the call is never timed again warm), the 318 reading. It is one sample between two clock reads, printed as the device's result (LB104, at the first statement inside the clock pair, the timed call), and the clock is `time.time()` (LB105, at the start read). The call is waited with `.block_until_ready()` (no LB102). `jit` is applied inside a function run once per device, but each pass targets another device, whose executable the jit cache could not reuse anyway: the cost is the compile already labelled LB103, so no LB111 (424's reading of a jit built once per call of a helper). The CPU-versus-GPU comparison therefore compares two compiles plus one run each. Code: the file as stored at commit 0b933a7, unchanged.
# static: LB103, LB104, LB105
# dynamic: n/a
# inferred: LB103 (the first call of the freshly jitted function is the timed one; not discussed), LB104 (one sample per device; not discussed), LB105 (`time.time()` as the interval clock; not discussed)
# lines: LB103:25, LB104:25, LB105:24
# first-sight: fb4008d 2026-12-06 py: found LB105:24; missed LB103:25, LB104:25; false none | notebook: found LB105:24; missed LB103:25, LB104:25; false none

# benchmarks/advanced/cpu_vs_gpu_scaling.py
import time
import os
import jax
import jax.numpy as jnp
from jax import jit

def test_backend(device):
    with jax.default_device(device):
        x = jnp.linspace(0, 1, 10**7)
        f = lambda x: jnp.sin(x) + jnp.exp(x)
        f_jit = jit(f)

        t0 = time.time()
        _ = f_jit(x).block_until_ready()
        t1 = time.time()
        return t1 - t0

for device in [jax.devices("cpu")[0], jax.devices("gpu")[0] if jax.devices("gpu") else None]:
    if device:
        t = test_backend(device)
        print(f"{device.platform.upper()} → {t:.6f}s (JIT)")
