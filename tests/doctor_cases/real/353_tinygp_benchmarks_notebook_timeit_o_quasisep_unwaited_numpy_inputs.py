# source: https://github.com/dfm/tinygp/blob/209e3e7a4ef281166693f178847496138c1806e9/docs/tutorials/benchmarks.ipynb
# title: tinygp 'Benchmarks' tutorial: the GP log-likelihood of tinygp (exact on CPU and GPU, quasiseparable on CPU) against george, george's HODLR solver and celerite2, timed per data size with `results = %timeit -o ...` in a loop
# established-by: maintainer dfm
# cause: The notebook is tinygp's own benchmark page, written by its lead developer (who also wrote george), and times each implementation at nine data sizes with `%timeit -o` inside a Python loop, keeping `results.average` for the plot. No issue discusses its timing; what a correct doctor reports, by the catalogue and the corpus's readings: the exact tinygp solvers are warmed with a waited call at each size and timed with `.block_until_ready()`, but the quasiseparable solver, jitted as `quasisep_loglike`, is timed with no wait, so its figure is the dispatch of an asynchronous call (LB102 at its `%timeit` line; `%timeit` without `-n` calibrates with untimed runs first, so the compile at each new size is not in the figure and there is no LB103, case 175's reading). The CPU solvers are handed `args = x[:n], y[:n]`, slices of the NumPy data, inside every timed call, while the GPU solver gets `jax.device_put` copies made before its timing (LB115 at the two CPU `%timeit` lines: NumPy arrays handed to JAX code inside the timing, the reading of cases 289-291 and 334). `from jax.config import config` raises on current JAX (LB113, as cases 167, 175 and 307). The loop over sizes warms each exact solver at its size before timing it, a sweep over sizes, not LB117 (cases 213 and 314); the george, HODLR and celerite2 timings are NumPy and C++ code. Code: the notebook's code cells as stored at commit 209e3e7, in order, `# %%` between cells, IPython magics kept; the plotting cell after the loop and an empty last cell are left out.
# static: LB102, LB113, LB115
# dynamic: n/a
# inferred: LB102 (the quasiseparable solver's result is not waited for; not discussed), LB113 (`jax.config` is no longer importable as a module; not discussed), LB115 (NumPy slices handed to the CPU solvers in every timed call; not discussed)
# lines: LB102:125, LB113:27, LB115:114/125
# first-sight: f5b8aeb 2026-12-06 py: found LB113:27 LB102:125; missed LB115:114/125; false none | notebook: found LB113:27 LB102:125; missed LB115:114/125; false none

# %%
try:
    import tinygp
except ImportError:
    %pip install -q tinygp

try:
    import george
except ImportError:
    %pip install -q george

try:
    import celerite2
except ImportError:
    %pip install -q celerite2

from jax.config import config

config.update("jax_enable_x64", True)
# %%
!nvidia-smi --query-gpu=gpu_name --format=csv
# %%
import os

os.environ["JAX_ENABLE_X64"] = "True"
os.environ["OMP_NUM_THREADS"] = "1"
os.environ["XLA_FLAGS"] = (
    os.environ.get("XLA_FLAGS", "")
    + " --xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1"
)
# %%
from functools import partial

import numpy as np
import matplotlib.pyplot as plt

import jax

import george
import celerite2
import tinygp

sigma = 1.5
rho = 2.5
jitter = 0.1

random = np.random.default_rng(49382)
x = np.sort(random.uniform(0, 10, 100_000))
y = np.sin(x) + jitter * random.normal(0, 1, len(x))


def george_loglike(x, y, **kwargs):
    kernel = sigma**2 * george.kernels.Matern32Kernel(rho**2)
    gp = george.GP(kernel, **kwargs)
    gp.compute(x, jitter)
    return gp.log_likelihood(y)


hodlr_loglike = partial(
    george_loglike, solver=george.solvers.HODLRSolver, tol=0.5
)


def celerite_loglike(x, y):
    kernel = celerite2.terms.Matern32Term(sigma=sigma, rho=rho)
    gp = celerite2.GaussianProcess(kernel, x, diag=jitter**2)
    return gp.log_likelihood(y)


def tinygp_loglike(x, y):
    kernel = sigma**2 * tinygp.kernels.Matern32(rho)
    gp = tinygp.GaussianProcess(kernel, x, diag=jitter**2)
    return gp.log_probability(y)


tinygp_loglike_cpu = jax.jit(tinygp_loglike, backend="cpu")
tinygp_loglike_gpu = jax.jit(tinygp_loglike, backend="gpu")


@partial(jax.jit, backend="cpu")
def quasisep_loglike(x, y):
    kernel = tinygp.solvers.quasisep.kernels.Matern32(sigma=sigma, scale=rho)
    gp = tinygp.GaussianProcess(kernel, x, diag=jitter**2)
    return gp.log_probability(y)
# %%
ns = [10, 20, 100, 200, 1_000, 2_000, 10_000, 20_000, len(x)]
george_time = []
hodlr_time = []
cpu_time = []
gpu_time = []
quasisep_time = []
celerite_time = []
for n in ns:
    print(f"\nN = {n}:")

    args = x[:n], y[:n]
    gpu_args = jax.device_put(x[:n]), jax.device_put(y[:n])

    if n < 10_000:
        results = %timeit -o george_loglike(*args)
        george_time.append(results.average)

        tinygp_loglike_cpu(*args).block_until_ready()
        results = %timeit -o tinygp_loglike_cpu(*args).block_until_ready()
        cpu_time.append(results.average)

    if n <= 20_000:
        results = %timeit -o hodlr_loglike(*args)
        hodlr_time.append(results.average)

        tinygp_loglike_gpu(*gpu_args).block_until_ready()
        results = %timeit -o tinygp_loglike_gpu(*gpu_args).block_until_ready()
        gpu_time.append(results.average)

    results = %timeit -o quasisep_loglike(*args)
    quasisep_time.append(results.average)

    results = %timeit -o celerite_loglike(*args)
    celerite_time.append(results.average)
