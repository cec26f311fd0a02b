# source: https://github.com/seanavery/yolov5-tensorrt/issues/11
# title: Inference time seems not correct since the cuda is asynchronized?
# established-by: maintainer SeanAvery ('Yes @PonyPC good call! The time bookend should take place after allocating memory from the gpu back to the device, and synchronization has taken place. Will update README so the inference times listed in the README are not misleading.'); python/lib/Processor.py was changed to stop the clock after `self.stream.synchronize()`
# cause: `Processor.inference` printed as its execution time a `time.time()` interval around `self.context.execute_async_v2(...)`, TensorRT's asynchronous execution call, which only enqueues the engine's kernels on the CUDA stream and returns. The clock stopped before the stream had run, so the printed time (and the README's inference times) was the enqueue time. The fix moved the end of the interval after the device-to-host copies and `self.stream.synchronize()`. Code: the snippet quoted in the issue, dedented by eight spaces (it sits in `Processor.inference`, after the host-to-device copies with `cuda.memcpy_htod_async`; the TensorRT engine, pycuda stream and bindings are set up in `__init__`).
# static: LB116, LB105, LB104
# dynamic: n/a
# inferred: LB105 (time.time() as the interval timer; not discussed), LB104 (one sample per call, printed on its own; not discussed)
# lines: LB116:12, LB105:11, LB104:12
# first-sight: 88e72af 2026-12-03 py: found none; missed LB104:12, LB105:11, LB116:12; false none | notebook: found none; missed LB104:12, LB105:11, LB116:12; false none

start = time.time()
self.context.execute_async_v2(
        bindings=self.bindings,
        stream_handle=self.stream.handle)
end = time.time()
print('execution time:', end-start)
