"""PyTorch: CUDA synchronisation, autograd state, FLOP counting.

torch is imported only when the user's objects show it is in use (``"torch" in sys.modules``).
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Callable
from typing import Any

from .._values.findings import Finding, Severity
from .._results.measurement import CompileTimes
from .base import ArrayInfo, CompileLog
from .._values.pytree import leaves
from .numpy_adapter import _per_call


class TorchAdapter:
    name = "torch"

    def in_use(self) -> bool:
        return "torch" in sys.modules

    def is_array(self, x: Any) -> bool:
        if "torch" not in sys.modules:
            return False
        import torch

        return isinstance(x, torch.Tensor)

    def describe(self, x: Any) -> ArrayInfo:
        return ArrayInfo("torch", tuple(x.shape), str(x.dtype).removeprefix("torch."), str(x.device))

    def to_numpy(self, x: Any) -> Any:
        import torch

        x = x.detach().cpu()
        if x.dtype in (torch.bfloat16, torch.float16):
            x = x.float()
        return x.numpy()

    def blocker(self, result: Any) -> Callable[[Any], None] | None:
        if not any(self.is_array(t) and t.device.type == "cuda" for t in leaves(result)):
            return None
        import torch

        return lambda _: torch.cuda.synchronize()

    def owns_callable(self, fn: Any) -> bool:
        if not self.in_use():
            return False
        import torch

        return isinstance(fn, torch.nn.Module) or (getattr(fn, "__module__", "") or "").startswith("torch")

    def reporting_compiles(self, log: CompileLog) -> Any:
        return contextlib.nullcontext()  # runs eagerly: compiles nothing

    def compile_times(self, fn: Any, args: tuple, kwargs: dict) -> CompileTimes | None:
        return None

    def dispatch_floor(self, timer: Callable[[], float]) -> float | None:
        import torch


        x = torch.zeros(1)
        with torch.inference_mode():
            return _per_call(lambda: torch.add(x, 1), timer)

    def flops(self, fn: Any, args: tuple, kwargs: dict) -> float | None:
        import torch
        from torch.utils.flop_counter import FlopCounterMode

        try:
            counter = FlopCounterMode(display=False)
            with counter, torch.inference_mode():
                fn(*args, **kwargs)
            total = counter.get_total_flops()
        except Exception:  # ops the counter cannot follow
            return None
        return float(total) if total > 0 else None

    def call_findings(self, fn: Any, args: tuple, kwargs: dict, result: Any) -> list[Finding]:
        import torch


        findings = []
        if any(isinstance(t, torch.Tensor) and t.requires_grad for t in leaves(result)):
            findings.append(
                Finding(
                    "LB010",
                    "PyTorch ran with autograd on: the output records a graph for backward",
                    Severity.WARNING,
                    evidence="an output tensor has requires_grad=True",
                    cost="autograd bookkeeping and saved activations on every call",
                    fix="with torch.inference_mode():\n    out = model(x)",
                )
            )
        modules = [m for m in (fn, getattr(fn, "__self__", None)) if isinstance(m, torch.nn.Module)]
        if any(m.training for m in modules):
            findings.append(
                Finding(
                    "LB011",
                    f"{type(modules[0]).__name__} is in training mode",
                    Severity.WARNING,
                    evidence="module.training is True (dropout and batch-norm updates are active)",
                    fix="model.eval()",
                )
            )
        return findings


ADAPTER = TorchAdapter()
