# source: https://github.com/martiningram/mcmc_runtime_comparison/blob/1641182960cc7d86a22de2f96248801faf87569c/fit_pymc_blackjax.py
# title: Martin Ingram's MCMC runtime comparison, `fit_pymc_blackjax.py`: a hierarchical tennis model sampled once with PyMC's `sample_blackjax_nuts` between two `time()` reads (`from time import time`), the runtime written to a file per start year and seed
# established-by: maintainer martiningram (the repository author's runtime script, one of the per-backend `fit_*.py` scripts of his Stan/PyMC/NumPyro/BlackJAX comparison; no issue discusses its timing)
# cause: The script reports the end-to-end runtime of one PyMC-with-BlackJAX fit, compile included by design (the comparison is of whole fits across backends, as 297's PyMC page is). What a correct doctor reports, by the catalogue and the corpus's readings: the figure is one run between two clock reads (LB104, at the first statement inside the clock pair, 364's reading of NumPyro's examples timing one end-to-end run; the repository's shell and notebooks repeat whole processes over years and seeds, which the file does not show) and the clock is `time()` imported from `time`, the wall clock (LB105, at the start read). `sample_blackjax_nuts` returns an ArviZ `InferenceData` of host arrays, so the run is waited for before the clock is read again (no LB102; PyMC's own internal 'Sampling time' print was the unwaited one, pymc-devs/pymc#6550, case 151, not this file's figure), and the compile is part of the end-to-end figure the script means (no LB103, 297's reading). Code: the file as stored at commit 1641182, unchanged.
# static: LB104, LB105
# dynamic: n/a
# inferred: LB104 (one end-to-end run per figure; not discussed), LB105 (`time()` from `time` as the interval clock; not discussed)
# lines: LB104:37/38, LB105:35
# first-sight: 0ba6573 2026-12-06 py: found none; missed LB104:37/38, LB105:35; false none | notebook: found none; missed LB104:37/38, LB105:35; false none

import sys
import os
import pymc.sampling_jax
from fetch_data import get_pymc_model
from time import time
import pymc as pm

start_year = int(sys.argv[1])
platform = sys.argv[2]
base_dir = sys.argv[3]
seed = int(sys.argv[4])

assert platform in ["cpu", "gpu"]

if platform == "cpu":
    # Disable GPU
    os.environ["CUDA_VISIBLE_DEVICES"] = ""

target_dir = f"{base_dir}/pymc_blackjax_{platform}"

os.makedirs(target_dir, exist_ok=True)

model = get_pymc_model(start_year=start_year)

start_time = time()

with model:
    hierarchical_trace = pymc.sampling_jax.sample_blackjax_nuts(random_seed=seed)

runtime = time() - start_time

hierarchical_trace.to_netcdf(os.path.join(target_dir, f"samples_{start_year}.netcdf"))
print(runtime, file=open(os.path.join(target_dir, f"runtime_{start_year}.txt"), "w"))
