# source: https://github.com/pytorch/pytorch/issues/21286
# title: Floating inference time on NVIDIA Jetson Nano
# established-by: maintainer soumith
# cause: %timeit of a CUDA model call measures only the launch of asynchronous kernels, so the numbers jump around; the maintainers' fix is torch.cuda.synchronize() before and after the call inside the timed statement. Code: the first six %timeit inputs of the issue, their printed outputs dropped.
# static: LB116
# dynamic: n/a
# inferred: none
# lines: LB116:11/13/15/17/19/21
# first-sight: 43b52af 2026-12-02 py: found none; missed LB116:11/13/15/17/19/21; false LB100:11 | notebook: found none; missed LB116:11/13/15/17/19/21; false LB100:11

In [54]: %timeit -n1 -r1 pred, _ = model(img2)
# %%
In [55]: %timeit -n1 -r2 pred, _ = model(img2)
# %%
In [56]: %timeit -n1 -r5 pred, _ = model(img2)
# %%
In [57]: %timeit -n1 -r10 pred, _ = model(img2)
# %%
In [58]: %timeit -n1 -r20 pred, _ = model(img2)
# %%
In [59]: %timeit -n1 -r30 pred, _ = model(img2)
