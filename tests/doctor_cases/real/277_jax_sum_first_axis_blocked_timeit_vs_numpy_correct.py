# source: https://github.com/jax-ml/jax/issues/25187
# title: JAX sum along first axis is slow: `%timeit` of NumPy's `np.sum(x, axis=0)` against JAX's eager and jitted `jnp.sum`, each JAX call wrapped in `jax.block_until_ready`, on a 128x128x128 float32 array on CPU
# established-by: maintainer jax-ml (the JAX team triaged the report as a `bug`: the XLA CPU reduction over the leading axis is slow; the reporter, ricardoV94, maintains PyTensor's JAX backend)
# cause: Correct benchmark code; the slowness it reports is JAX's (the issue is open and labelled `bug`: the CPU reduction along axis 0 runs about 6x slower than NumPy), not the measurement's. Each JAX timing wraps the call in `jax.block_until_ready`, so every run waits for the sum; both JAX functions are called once before timing (the `assert_allclose` checks), and `%timeit` without `-n` calibrates with untimed runs anyway; `x_jax` is a device array made before the timing, so no host-to-device copy is timed; NumPy and JAX both work in float32. The eager `jax_sum` is one `jnp.sum`, timed beside its jitted twin on purpose, not a loop of dispatches. Code: the snippet as posted, with the `%timeit` output lines and the system info after it left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: aea0196 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import numpy as np
import jax

def np_sum(x):
    return np.sum(x, axis=0, dtype=np.float32)

def jax_sum(x):
    return jax.numpy.sum(x, axis=0)

jax_sum_jitted = jax.jit(jax_sum)

N = 128
x_np = np.random.default_rng(123).normal(size=(N, N, N)).astype(np.float32)
x_jax = jax.numpy.array(x_np)

np.testing.assert_allclose(np_sum(x_np), jax_sum(x_jax), atol=1e-4)
np.testing.assert_allclose(np_sum(x_np), jax_sum_jitted(x_jax), atol=1e-4)

%timeit np_sum(x_np)
%timeit jax.block_until_ready(jax_sum(x_jax))
%timeit jax.block_until_ready(jax_sum_jitted(x_jax))
