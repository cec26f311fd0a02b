# source: https://github.com/pytorch/pytorch/issues/174674
# title: `torch.linalg.eigh`: very slow for batched inputs
# established-by: maintainer nikitaved (the author; the heuristic he points at was measured again in pytorch/pytorch#175403)
# cause: Correct benchmark code: both calls are made once in the script before the IPython timings (so cuSOLVER's and CuPy's first-call setup is done), and each `%timeit` statement ends with `torch.cuda.synchronize()`, which waits for all work on the device, CuPy's included, so every loop measures the finished decomposition; `%timeit` repeats it. The 100x gap is PyTorch's choice of cuSOLVER driver for a batch of 500 matrices of 100 x 100, not the measurement. Code: the issue's `cmp.py` and the IPython session run after it, as posted (outputs dropped), one cell each.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 7b74e08 2026-12-03 py: found none; missed none; false none | notebook: found none; missed none; false none

import torch
import cupy

def get_max_error(inp, eigvecs, eigvals):
    return (inp @ eigvecs - eigvals.unsqueeze(-2) * eigvecs).abs().max()

q, _ = torch.linalg.qr(torch.randn(500, 100, 100, device="cuda"))
inp_torch = q + q.mH
inp_cupy = cupy.array(inp_torch.cpu().numpy())

eigvals_t, eigvecs_t = torch.linalg.eigh(inp_torch)
print(f"Torch error: {get_max_error(inp_torch, eigvecs_t, eigvals_t)}")

eigvals_c, eigvecs_c = cupy.linalg.eigh(inp_cupy)
print(f"CuPy error: {get_max_error(torch.as_tensor(inp_cupy), torch.as_tensor(eigvecs_c), torch.as_tensor(eigvals_c))}")
# %%
%timeit torch.linalg.eigh(inp_torch); torch.cuda.synchronize()
# %%
%timeit cupy.linalg.eigh(inp_cupy); torch.cuda.synchronize()
