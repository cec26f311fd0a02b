# source: https://github.com/microsoft/Olive/pull/492
# title: Synchronize GPU and use cuda events for pytorch GPU latency: Olive's `PyTorchEvaluator._evaluate_raw_latency` read `time.perf_counter` around each forward pass; the maintainer's PR waits for the GPU and times each run with `torch.cuda.Event`s instead
# established-by: maintainer jambayk (an Olive developer, author of the merged PR: 'CUDA calls are asynchronous so using cpu timers like `time.perf_counter` is not always correct ... It measures the time taken to make the cuda kernal calls and not the entire execution time. We use `torch.cuda.synchronize` after the forward call to wait for all kernels to execute. Also use `torch.cuda.Event` to mark start and end points for the forward pass.')
# cause: Correct code, the fixed form the PR established. On CUDA the method runs `warmup_num` untimed forward passes, synchronizes, then for each of `repeat_test_num` runs records a start and an end CUDA event around `model.run_session(...)` and synchronizes before reading `starter.elapsed_time(ender)`, so each latency is the GPU's own time for that pass, and the list goes to percentile statistics (`latency_helper`: average, min, max, p50 to p99.9). On the CPU the same loop reads `time.perf_counter()` around each pass, where the work is synchronous. The whole method runs under `@torch.no_grad()`, and the input batch is moved to the device before the warm-up, outside every timed pass. Code: `olive/evaluator/olive_evaluator.py` as stored at commit 00b85f8 (a later version that keeps the PR's CUDA-event loop), trimmed to the imports the method uses and `PyTorchEvaluator._evaluate_raw_latency`; the license header, the base classes, the other `PyTorchEvaluator` methods and the ONNX, OpenVINO, QNN and LM evaluators are left out.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: f5b8aeb 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import time
from typing import TYPE_CHECKING, Optional, Union

import torch

from olive.common.utils import tensor_data_to_device
from olive.constants import Framework
from olive.evaluator.metric import Metric, get_latency_config_from_metric
from olive.evaluator.registry import Registry
from olive.hardware import Device

if TYPE_CHECKING:
    from torch.utils.data import DataLoader


@Registry.register(str(Framework.PYTORCH))
@Registry.register("PyTorchEvaluator")
class PyTorchEvaluator(_OliveEvaluator):
    @torch.no_grad()
    def _evaluate_raw_latency(
        self,
        model: "PyTorchModelHandler",
        metric: Metric,
        dataloader: "DataLoader",
        post_func=None,
        device: Device = Device.CPU,
        execution_providers: Optional[Union[str, list[str]]] = None,
    ) -> list[float]:
        # pylint: disable=expression-not-assigned
        warmup_num, repeat_test_num, _ = get_latency_config_from_metric(metric)
        # pytorch model doesn't use inference_settings, so we can pass None
        session = model.prepare_session(inference_settings=None, device=device)

        batch = next(iter(dataloader))
        input_data = OliveEvaluator.extract_input_data(batch)
        torch_device = _OliveEvaluator.device_string_to_torch_device(device)
        run_kwargs = metric.get_run_kwargs()

        session.to(torch_device)
        input_data = tensor_data_to_device(input_data, torch_device)

        # warm up
        for _ in range(warmup_num):
            model.run_session(session, input_data, **run_kwargs)

        latencies = []
        if torch_device == torch.device("cuda"):
            # synchronize before starting the test
            torch.cuda.synchronize()
            # cuda events for measuring latency
            starter = torch.cuda.Event(enable_timing=True)
            ender = torch.cuda.Event(enable_timing=True)
            for _ in range(repeat_test_num):
                starter.record()
                model.run_session(session, input_data, **run_kwargs)
                ender.record()
                # synchronize after forward pass
                torch.cuda.synchronize()
                # add time in seconds, originally in milliseconds
                latencies.append(starter.elapsed_time(ender) * 1e-3)

            # move model back to cpu
            session.to("cpu")
            tensor_data_to_device(input_data, Device.CPU)

            # only move to cpu cannot release gpu memory, call cuda.empty_cache() to release gpu memory
            if torch.cuda.is_available():
                torch.cuda.empty_cache()
        else:
            for _ in range(repeat_test_num):
                t = time.perf_counter()
                # TODO(jambayk): do we care about the efficiency of if/else here?
                # probably won't add much overhead compared to the inference time
                # also we are doing the same for all models
                model.run_session(session, input_data, **run_kwargs)
                latencies.append(time.perf_counter() - t)

        return latencies
