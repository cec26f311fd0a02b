# source: https://github.com/pytorch/pytorch/pull/49404
# title: [numpy] Add dtype kwarg support to `torch.sin`: a reviewer-requested `torch.utils.benchmark.Timer` script timing the C++ statements `x.sin()` and `x.sin(torch::kFloat32)` on a small CPU tensor with `blocked_autorange(min_run_time=5)` and counting instructions with `collect_callgrind`
# established-by: maintainer ngimel (the benchmark was asked for in the review, and this update is addressed to ngimel: kshitij12345, the PR's author, changed the thread's script as `Timer`'s own error message instructs for CPU-only code on a CUDA build)
# cause: Correct benchmark code. The statements run in C++ on a CPU tensor made in `setup` (`torch::ones({2,10,15})`, no device given), so there is no CUDA work to wait for; the CUDA build's `Timer` refused to run without a timer for GPU-free code, and `timer=timeit.default_timer` is the fix its message names ('If your code is CPU only, pass `timer=timeit.default_timer`'). `blocked_autorange` runs each statement in blocks for at least five seconds and reports the median per run with its spread, and `collect_callgrind(number=10_000)` counts instructions, a deterministic measure beside the timing. No autograd is involved (C++ statements on a tensor that does not require grad). Code: the updated script as posted in the PR thread, without its output.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0228b9c 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

from torch.utils.benchmark import Timer
import timeit

timer = Timer("x.sin();", setup="torch::Tensor x = torch::ones({2,10,15});", language="c++", timer=timeit.default_timer)
print(timer.blocked_autorange(min_run_time=5))
print(timer.collect_callgrind(number=10_000))

print("****"* 10)

timer = Timer("x.sin(torch::kFloat32);", setup="torch::Tensor x = torch::ones({2,10,15});", language="c++", timer=timeit.default_timer)
print(timer.blocked_autorange(min_run_time=5))
print(timer.collect_callgrind(number=10_000))
