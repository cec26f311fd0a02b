# source: https://github.com/pytorch/pytorch/pull/175403
# title: Update eigh CUDA heuristics (the PR author's measurement of the three cuSOLVER backends)
# established-by: answer by johannesz-codes (the PR's author, measuring the heuristic that pytorch/pytorch#174674 questioned)
# cause: Correct benchmark code: each configuration is warmed up five times, then timed with `torch.utils.benchmark.Timer(...).blocked_autorange(min_run_time=1)`, which synchronizes CUDA around its measurements and repeats the statement until a second of samples is collected; the inputs are built on the device before the timing and `Compare` prints the medians. The backend is switched through the environment variable the PR adds. Code: the script from the PR comment, as posted (its output table dropped).
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 7b74e08 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import os

import torch
import torch.utils.benchmark as benchmark

from itertools import product

results = []

batches = [(), (16,), (32,)]
sizes = [16, 128, 512,  2048]
dtypes = [torch.float32, torch.float64, torch.complex64, torch.complex128]

ENVVAR = "TORCH_LINALG_EIGH_BACKEND"
BACKENDS = {
    1: "syevd",
    2: "syevj",
    3: "syevj_batched",
}


for b, n, dtype in product(batches, sizes, dtypes):
    shape = b + (n, n)
    print(f"Testing shape={shape}, dtype={dtype}")
    label = "torch.linalg.eigh"
    sub_label = f"{shape}, {dtype}"
    X = torch.rand(*shape, dtype=dtype, device="cuda")
    X = X + X.mT.conj()
    stmt = "torch.linalg.eigh(X)"
    for mode, name in BACKENDS.items():
        os.environ[ENVVAR] = str(mode)
        # warm-up
        for _ in range(5):
            exec(stmt)

        results.append(benchmark.Timer(
            stmt=stmt,
            globals={'X': X},
            label=label,
            sub_label=sub_label,
            description=name,
        ).blocked_autorange(min_run_time=1))

compare = benchmark.Compare(results)
compare.print()
