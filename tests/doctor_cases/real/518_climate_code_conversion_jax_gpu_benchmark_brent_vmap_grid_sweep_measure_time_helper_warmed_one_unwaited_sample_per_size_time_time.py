# source: https://github.com/anthony-zhou/climate_code_conversion/blob/3de8ae0605954964eed46e4bfa315ffc1d392c3f/_demos/runtime_scripts/jax_gpu/jax_gpu_benchmark.py
# title: climate_code_conversion's `_demos/runtime_scripts/jax_gpu/jax_gpu_benchmark.py`: the vmapped, jitted Brent root find of the photosynthesis model timed on GPU over grids of 1,000 to 100,000,000 starting values, each grid warmed once at its own shape and then timed once by a `measure_time` helper between `time.time()` reads, the figures written to `runtime.txt` and printed as 'Time on GPU'
# established-by: maintainer anthony-zhou (the repository's author; the helper's '# Warm-up' comment, the file name `runtime.txt` and the printed 'Time on GPU' say what is measured; no issue discusses the script's timing)
# cause: What a correct doctor reports, by the catalogue. `vectorized_fn` is the `jax.vmap` of `element_brent_with_sign_change`, which the imported `jax_version.py` (case 517) decorates with `jax.jit`. `measure_time` calls it once on the grid before the clock starts, at the timed shape, so the compile stays out (no LB103), but the timed `_ = fn(*inputs)` returns a JAX array that nothing waits for before the end read, so each figure can stop at dispatch, flat in the grid size (LB102); each grid size is timed once, one call between two clock reads, one sample per configuration (LB104, at the first statement inside the clock pair, 284's and 332's reading); the clock is `time.time()` (LB105, at the start read). The inputs are made with `jnp.linspace` on the device before each call (no LB115). Code: the file at commit 3de8ae0, unchanged.
# static: LB102, LB104, LB105
# dynamic: n/a
# inferred: LB102 (the timed result is never waited for; not discussed), LB104 (one call per grid size; not discussed), LB105 (`time.time()`; not discussed)
# lines: LB102:29, LB104:29, LB105:27
# first-sight: 0b61823 2026-12-06 py: found LB105:27; missed LB102:29, LB104:29; false none | notebook: found LB105:27; missed LB102:29, LB104:29; false none

import jax
from jax import numpy as jnp
import time

from jax_version import element_brent_with_sign_change


grid_samples = [1000, 10000, 100000, 1000000, 10000000, 100000000]

print("Runtimes for JAX")

def measure_time(fn, *inputs):
    
    # Warm-up
    _ = fn(*inputs)

    start_time = time.time()

    _ = fn(*inputs)

    return time.time() - start_time


vectorized_fn = jax.vmap(element_brent_with_sign_change)


with open('runtime.txt', 'w') as f:
    

    for grid_sample in grid_samples:
        ci_vals = jnp.linspace(35.0, 70.0, num=grid_sample)

        runtime = measure_time(vectorized_fn, ci_vals)

        f.write(f"{grid_sample}, {runtime:.6f}\n")

        print(f"Grid size: {grid_sample}")
        print(f"Time on GPU: {runtime:.6f} seconds")



