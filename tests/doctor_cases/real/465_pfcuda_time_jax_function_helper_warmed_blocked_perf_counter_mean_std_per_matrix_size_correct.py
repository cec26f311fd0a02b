# source: https://github.com/Mou1z/PfCUDA/blob/26ef34dd49487d52c6022778c310cb151ddcacbb/benchmark_jax.py
# title: PfCUDA's `benchmark_jax.py`: a JAX Pfaffian timed over matrix sizes 10, 20 and 30 by a `time_jax_function` helper that converts the NumPy matrix to a JAX array, warms the function up with a wait, then times 5000 calls one by one with `perf_counter` and `block_until_ready`, reporting the mean and standard deviation
# established-by: maintainer Mou1z (the repository's author; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. The helper copies the NumPy matrix to the device with `jnp.array(A, dtype=jnp.float64)` before the clock starts (no LB115), calls `func` once with a wait to compile it for this size before the timed loop (no LB103), and each of the 5000 samples reads `perf_counter` around one call and its `block_until_ready()` (no LB102, no LB104, no LB105); the figure is their mean and standard deviation. x64 is enabled before any array is made, so the float64 request holds (no LB108). The new size at each pass of the loop over `MATRIX_SIZES` is compiled by that pass's own warm-up, a sweep over sizes (no LB117). A correct doctor stays quiet. Code: the file at commit 26ef34d, unchanged (the commented-out imports are the author's alternative Pfaffian implementations).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: e4a92af 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import jax
jax.config.update("jax_enable_x64", True)

import jax.numpy as jnp
from jax import lax
import numpy as np
import time
import json
import os
import matplotlib.pyplot as plt
from datetime import datetime
# from pfaffian_jax_op_no_mask import pfaffian 
# from pfaffian_jax import pfaffian 
# from pfaffian_jax_op_mask import pfaffian 
# from pfaffian_jax_s import pfaffian 
# from pfaffian_det_based import pfaffian
# from lrux.pfaffian import pf as pfaffian
# from pfaffian_jax_super import pfaffian
# from lrux import slogpf as pfaffian
# from pfaffian_jax_naive import pfaffian
from pfaffian import pfaffian

# ----------------------------
# BENCHMARK CONFIG
# ----------------------------
RESULTS_FILE = "pfaffian_benchmark.json"

MATRIX_SIZES = [10, 20, 30]
RUNS_PER_SIZE = 5000

PLOT_DIR = "benchmarks"
os.makedirs(PLOT_DIR, exist_ok=True)

# ----------------------------
# UTILITIES
# ----------------------------
def random_skew_symmetric(n):
    A = np.random.randn(n, n)
    return A - A.T

def time_jax_function(func, A, runs):
    # Convert numpy array to jax array
    A_jax = jnp.array(A, dtype=jnp.float64)
    # Warm-up to trigger JIT compilation
    value = func(A_jax)
    value.block_until_ready()

    times = []
    for _ in range(runs):
        start = time.perf_counter()
        value = func(A_jax)
        # Make sure computation finishes (important for JAX)
        value.block_until_ready()
        end = time.perf_counter()
        times.append(end - start)
    return np.mean(times), np.std(times)

def load_results():
    if os.path.exists(RESULTS_FILE):
        with open(RESULTS_FILE, "r") as f:
            return json.load(f)
    return []

def save_results(results):
    with open(RESULTS_FILE, "w") as f:
        json.dump(results, f, indent=2)

# ----------------------------
# RUN BENCHMARK
# ----------------------------
previous_results = load_results()

current_run = {
    "timestamp": datetime.now().isoformat(),
    "sizes": [],
    "mean_times": [],
    "std_times": []
}

print("Running JAX Pfaffian benchmark...")
for n in MATRIX_SIZES:
    print(f"  n = {n}")
    A = random_skew_symmetric(n)
    mean_t, std_t = time_jax_function(pfaffian, A, RUNS_PER_SIZE)

    current_run["sizes"].append(n)
    current_run["mean_times"].append(mean_t)
    current_run["std_times"].append(std_t)

previous_results.append(current_run)
save_results(previous_results)

# ----------------------------
# PLOTTING
# ----------------------------
plt.figure(figsize=(10, 6))

for run in previous_results[:-1]:
    plt.plot(
        run["sizes"],
        run["mean_times"],
        linewidth=1,
        alpha=0.4,
        linestyle="--",
        label=None
    )

run = previous_results[-1]
plt.plot(
    run["sizes"],
    run["mean_times"],
    marker="o",
    linewidth=3,
    label=f"Current run ({run['timestamp'].split('T')[0]})"
)

plt.xlabel("Matrix size (n)")
plt.ylabel("Execution time (seconds)")
plt.title("JAX Pfaffian Runtime Benchmark")
plt.grid(True)
plt.legend(title="Run date")
plt.tight_layout()

plot_path = os.path.join(PLOT_DIR, "pfaffian_benchmark.png")
plt.savefig(plot_path, dpi=300)
print(f"Plot saved to {plot_path}")
