"""``explain_target("model.py::forward")``: explain a function named as ``levelbench explain`` names it.

The module is imported with `levelbench._values.targets` (its ``if __name__ == "__main__":`` block does
not run), the function's example call is read by the convention of `levelbench._probing.examples`, and
the call is diagnosed with `diagnose`. Everything that can go wrong is one `ExplainFailed` whose message
is one complete line: ``usage`` says whether the name or the example arguments were wrong (the command
exits 2) or the user's code failed (exit 1). The command runs this in a child process of its own; called
from Python it runs here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from .._results.diagnosis import Diagnosis
from .._values.targets import TargetError, first_line, load_with_module, split_target
from .diagnose import CallFailed, diagnose
from .examples import ExampleError, example_call, example_calls
from .scale import ScaleRequest


class ExplainFailed(Exception):
    """`explain_target` could not diagnose its target; the message says why and the fix, on one line.

    ``usage`` is True when the target or its example arguments are named or shaped wrongly, False when
    the user's code failed (importing the module, computing the arguments, running the function)."""

    def __init__(self, message: str, usage: bool) -> None:
        super().__init__(message)
        self.usage = usage


def explain_target(target: str, *, args_name: str | None = None, scale_axis: ScaleRequest = None,
                   probes: Sequence[str] | None = None, quick: bool = False, budget: float = 10.0,
                   fixes: bool = True, progress: Callable[[str], None] | None = None) -> Diagnosis:
    """Diagnose the function ``target`` names (``FILE.py::NAME``, ``FILE.py:NAME`` or ``package.module:NAME``),
    called with the example arguments its module gives: ``NAME_args``, ``example_args`` or ``EXAMPLE_ARGS``
    (``args_name``: that attribute instead), and ``NAME_calls`` / ``example_calls`` / ``EXAMPLE_CALLS`` for
    the recompilation check. The other arguments are `explain`'s; ``progress`` is told each step as it
    starts. Raises `ExplainFailed`.

    !!! Example
        ```python
        d = levelbench.explain_target("model.py::forward", quick=True)   # model.py defines forward_args()
        ```
    """
    where, name = _split(target)
    say = progress or (lambda step: None)
    say(f"importing {where}")
    module, fn = _load(target, where, name)
    say(f"computing the example arguments of {name}")
    try:
        args, kwargs, source = example_call(module, name, args_name, where)
        calls = example_calls(module, name)
    except ExampleError as e:
        hint = (" (given by --args)" if args_name and e.usage and "no attribute" in str(e) else
                ", or name one with --args" if "gives no example" in str(e) else "")
        raise ExplainFailed(f"{e}{hint}", e.usage) from None
    try:
        return diagnose(fn, args, kwargs, scale_axis=scale_axis, calls=calls, probes=probes, quick=quick,
                        budget=budget, label=name, fixes=fixes, progress=progress)
    except CallFailed as e:
        came_from = f" (they are {source} in {where})" if "make the example arguments fit" in str(e) else ""
        raise ExplainFailed(f"{e}{came_from}", usage=False) from None
    except (TypeError, ValueError) as e:
        raise ExplainFailed(str(e), usage=True) from None
    except Exception as e:  # the user's function failed: say so on one line
        raise ExplainFailed(f"running {name} failed: {type(e).__name__}: {first_line(e)}", usage=False) from None


def _split(target: str) -> tuple[str, str]:
    try:
        return split_target(target)
    except TargetError:
        raise ExplainFailed(f"expected FILE.py::FUNCTION, got {target!r} (FILE.py:FUNCTION and "
                            "package.module:FUNCTION work too): e.g. levelbench explain model.py::forward",
                            usage=True) from None


def _load(target: str, where: str, name: str) -> tuple[ModuleType, Any]:
    """The module ``target`` lives in and the function it names."""
    try:
        module, obj = load_with_module(target)
    except TargetError as e:
        raise ExplainFailed(str(e), e.usage) from None
    if not callable(obj):
        raise ExplainFailed(f"{name} in {where} is not a function (got {type(obj).__name__}): name the function "
                            "to diagnose", usage=True)
    return module, obj
