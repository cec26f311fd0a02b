"""The example-arguments convention: how a module says what to call a function with, for explain.

For a function ``forward`` in a module, the example call is the first of ``forward_args``,
``example_args``, ``EXAMPLE_ARGS`` found in it (dots in a method's name become ``_``): a tuple of
positional arguments, a `Call`, or ``{"args": ..., "kwargs": ...}``, or a function returning one.
``forward_calls`` / ``example_calls`` / ``EXAMPLE_CALLS`` give a sequence of such calls, for
explain's recompilation check (``calls=``). ``levelbench explain FILE.py::forward``, the doctor's
accuracy benchmark and explain's budget benchmark all read runnable code this way.

    >>> import types
    >>> m = types.SimpleNamespace(forward=lambda x: x, forward_args=lambda: (3,))
    >>> example_call(m, "forward")
    ((3,), {}, 'forward_args')
"""

from __future__ import annotations

from typing import Any

from .._values.errors import InputError
from .._values.targets import first_line
from .arguments import Call


class ExampleError(InputError):
    """The module gives no usable example call: ``usage`` is True where the user named or shaped it
    wrongly (a missing attribute, a wrong type), False where their code failed computing it."""

    def __init__(self, message: str, usage: bool = True) -> None:
        super().__init__(message)
        self.usage = usage


def example_call(module: Any, name: str, attribute: str | None = None,
                 where: str | None = None) -> tuple[tuple, dict, str]:
    """``name``'s example call in ``module``: its positional and keyword arguments and the attribute they
    came from (``attribute``, when given, instead of the convention's names). ``where`` names the module
    in errors as the user named it (default: its file)."""
    stem = name.replace(".", "_")
    candidates = [attribute] if attribute else [f"{stem}_args", "example_args", "EXAMPLE_ARGS"]
    for attr in candidates:
        if hasattr(module, attr):
            return (*as_call(_value(module, attr), attr), attr)
    where = where or getattr(module, "__file__", None) or getattr(module, "__name__", "the module")
    if attribute:
        raise ExampleError(f"{where} has no attribute {attribute!r}")
    raise ExampleError(f"{where} gives no example arguments for {name}: add `def {stem}_args(): return (x, y)` "
                       "(or example_args() / EXAMPLE_ARGS) to it")


def example_calls(module: Any, name: str) -> list | None:
    """``name``'s sequence of example calls in ``module``, as given (None: the module gives none)."""
    for attr in (f"{name.replace('.', '_')}_calls", "example_calls", "EXAMPLE_CALLS"):
        if hasattr(module, attr):
            value = _value(module, attr)
            if not isinstance(value, (list, tuple)):
                raise ExampleError(f"{attr} must be a list of argument tuples, got {type(value).__name__}")
            return list(value)
    return None


def _value(module: Any, attr: str) -> Any:
    value = getattr(module, attr)
    if callable(value):
        try:
            return value()
        except Exception as e:
            raise ExampleError(f"{attr}() failed: {type(e).__name__}: {first_line(e)}", usage=False) from None
    return value


def as_call(value: Any, attr: str) -> tuple[tuple, dict]:
    """Positional and keyword arguments from an example value (a tuple, a `Call`, or args/kwargs)."""
    if isinstance(value, Call):
        return value.args, value.kwargs
    if isinstance(value, dict) and value and set(value) <= {"args", "kwargs"}:
        return tuple(value.get("args", ())), dict(value.get("kwargs", {}))
    if isinstance(value, (tuple, list)):
        return tuple(value), {}
    raise ExampleError(f"{attr} must be a tuple of positional arguments (for one argument: (x,)), "
                       f"got {type(value).__name__}")
