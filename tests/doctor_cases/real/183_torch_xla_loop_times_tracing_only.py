# source: https://github.com/pytorch/xla/issues/8858
# title: Document the difference between tracing time and execution time
# established-by: maintainer tengyifei (the author: 'end - start will only measure the tracing time. We'll need to do torch_xla.sync(wait=True) to block on device execution to measure the execution time')
# cause: With PyTorch/XLA, `run_model()` only records the lazy graph and `xm.mark_step()` hands it to the device without waiting, so the clock pair around the loop measures tracing and dispatch, not execution; the device work finishes later. The catalogue has no code for PyTorch/XLA's lazy execution (LB116 is CUDA's `torch.cuda.synchronize`), so the cause is not labelled. `time.time()` reads the clock at both ends. Code: the snippet as posted (`time`, `xm` and `run_model` defined elsewhere).
# static: LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval timer; not discussed)
# lines: LB105:11
# first-sight: d3e47a7 2026-12-03 py: found none; missed LB105:11; false none | notebook: found none; missed LB105:11; false none

start = time.time()
for step in range(num_steps):
  run_model()
  xm.mark_step()
end = time.time()
