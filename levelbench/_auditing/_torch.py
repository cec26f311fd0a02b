"""What the script asked of torch: each outermost call of a ``torch.nn.Module``, with the grad mode and the
training mode it ran in, and each backward pass, on the reference clock.

Hooked when (if) the script imports torch, by wrapping ``Module.__call__``: an inference timed with
autograd on (LB112) or in training mode with dropout or batch norm (LB281) is seen at the call, not guessed
from the code. A module called inside another module's forward is part of that call and is not counted.
"""

from __future__ import annotations

import time
import weakref
from typing import Any

_perf_ns = time.perf_counter_ns  # the reference clock, before the observer wraps the clocks

MAX_CALLS = 200_000
"""Module calls recorded at most: a script calling a model in a hot loop keeps running at its speed."""
BACKWARD = "<backward>"
"""The name a backward pass is recorded under."""


class TorchCalls:
    """``calls``: ``(reference ns, module class, grad enabled, training, training changes the computation)``,
    a backward pass as ``(reference ns, BACKWARD, ...)``."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, str, bool, bool, bool]] = []
        self.unrecorded = 0
        self._depth = 0
        # id(module) -> (a weak reference to it, whether training mode changes its output); not a WeakKeyDictionary,
        # whose every lookup makes a weak reference: garbage the collector then walks (13 us a call, measured)
        self._changes: dict[int, tuple[Any, bool]] = {}
        self._torch: Any = None

    def install(self, torch: Any) -> None:
        """Wrap ``torch.nn.Module.__call__`` and ``torch.autograd.backward`` (``Tensor.backward`` calls it)."""
        self._torch = torch
        module = torch.nn.Module
        call = module.__call__
        calls = self

        # one Python frame per module call: torch's global hooks would force every call, submodules included,
        # through its slow path (about 15 us a call of a small model, against about 1 us this way)
        def observed_call(self: Any, *args: Any, **kwargs: Any) -> Any:
            if calls._depth:
                return call(self, *args, **kwargs)
            training = bool(self.training)
            calls._record(type(self).__name__, bool(torch.is_grad_enabled()), training,
                          training and calls._training_changes(self))
            calls._depth = 1
            try:
                return call(self, *args, **kwargs)
            finally:
                calls._depth = 0

        module.__call__ = observed_call
        backward = torch.autograd.backward

        def observed_backward(*args: Any, **kwargs: Any) -> Any:
            self._record(BACKWARD, False, False, False)
            return backward(*args, **kwargs)

        torch.autograd.backward = observed_backward

    def _record(self, name: str, grad: bool, training: bool, changes: bool) -> None:
        if len(self.calls) >= MAX_CALLS:
            self.unrecorded += 1
            return
        self.calls.append((_perf_ns(), name, grad, training, changes))

    def _training_changes(self, module: Any) -> bool:
        """Whether training mode computes something else than eval mode: dropout (p > 0, an RNN's ``dropout``
        included) or batch norm among its modules."""
        known = self._changes.get(id(module))
        if known is not None and known[0]() is module:
            return known[1]
        nn = self._torch.nn
        found = any(
            (isinstance(m, nn.modules.dropout._DropoutNd) and m.p > 0)
            or isinstance(m, nn.modules.batchnorm._BatchNorm)
            or (isinstance(m, nn.RNNBase) and m.dropout > 0)
            for m in module.modules())
        try:
            self._changes[id(module)] = (weakref.ref(module), found)
        except TypeError:  # not weakly referenceable: looked at again next call
            pass
        return found
