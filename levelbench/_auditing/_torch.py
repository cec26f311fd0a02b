"""What the script asked of torch: each outermost call of a ``torch.nn.Module``, with the grad mode and the
training mode it ran in, and each backward pass, on the reference clock.

Hooked when (if) the script imports torch, with torch's global module hooks: an inference timed with
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
        self._changes: Any = weakref.WeakKeyDictionary()  # module -> whether training mode changes its output
        self._torch: Any = None

    def install(self, torch: Any) -> None:
        """Register the global forward hooks and wrap ``torch.autograd.backward`` (``Tensor.backward`` calls it)."""
        self._torch = torch
        try:
            hooks = torch.nn.modules.module
            hooks.register_module_forward_pre_hook(self._before)
            hooks.register_module_forward_hook(self._after)
        except AttributeError:  # a torch without global hooks: no module call is seen
            return
        backward = torch.autograd.backward

        def observed_backward(*args: Any, **kwargs: Any) -> Any:
            self._record(BACKWARD, False, False, False)
            return backward(*args, **kwargs)

        torch.autograd.backward = observed_backward

    def level(self) -> None:
        """A clock read is outside any module call: a forward that raised left its depth behind."""
        self._depth = 0

    def _before(self, module: Any, args: Any) -> None:
        if self._depth == 0:
            training = bool(module.training)
            self._record(type(module).__name__, bool(self._torch.is_grad_enabled()), training,
                         training and self._training_changes(module))
        self._depth += 1

    def _after(self, module: Any, args: Any, output: Any) -> None:
        self._depth = max(self._depth - 1, 0)

    def _record(self, name: str, grad: bool, training: bool, changes: bool) -> None:
        if len(self.calls) >= MAX_CALLS:
            self.unrecorded += 1
            return
        self.calls.append((_perf_ns(), name, grad, training, changes))

    def _training_changes(self, module: Any) -> bool:
        """Whether training mode computes something else than eval mode: dropout (p > 0, an RNN's ``dropout``
        included) or batch norm among its modules."""
        try:
            return self._changes[module]
        except (KeyError, TypeError):
            pass
        nn = self._torch.nn
        found = any(
            (isinstance(m, nn.modules.dropout._DropoutNd) and m.p > 0)
            or isinstance(m, nn.modules.batchnorm._BatchNorm)
            or (isinstance(m, nn.RNNBase) and m.dropout > 0)
            for m in module.modules())
        try:
            self._changes[module] = found
        except TypeError:  # not weakly referenceable: looked at again next call
            pass
        return found
