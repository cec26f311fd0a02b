"""Checks of public arguments, before any work: each message names the function, the argument, what
was expected and what was got, e.g. ``measure: budget must be a number of seconds >= 0, got '1' (str)``.

Used by `measure`, `compare` and their front ends, so that a wrong argument never surfaces as a
``TypeError`` from deep inside the sampler.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

from .errors import InputError, InputTypeError


def got(value: Any) -> str:
    """``'1' (str)``: a value as a message shows it, cut short."""
    text = repr(value)
    if len(text) > 60:
        text = text[:57] + "..."
    return f"{text} ({type(value).__name__})"


def number(where: str, name: str, value: Any, expected: str, *, low: float | None = None, low_open: bool = False,
           high: float | None = None, high_open: bool = False, integer: bool = False, optional: bool = False,
           finite: bool = True) -> None:
    """``value`` is a real number (an integer with ``integer``) within the bounds; None if ``optional``."""
    if value is None and optional:
        return
    kind = numbers.Integral if integer else numbers.Real
    if isinstance(value, bool) or not isinstance(value, kind):
        if isinstance(value, str):
            hint = f"; pass the number itself, e.g. {name}={value.strip()}" if _parses(value) else ""
        else:
            hint = ""
        raise InputTypeError(f"{where}: {name} must be {expected}, got {got(value)}{hint}")
    v = float(value)
    bad = math.isnan(v) or (finite and math.isinf(v))
    if low is not None:
        bad = bad or (v <= low if low_open else v < low)
    if high is not None:
        bad = bad or (v >= high if high_open else v > high)
    if bad:
        raise InputError(f"{where}: {name} must be {expected}, got {got(value)}")


def flag(where: str, name: str, value: Any, optional: bool = False) -> None:
    """``value`` is True or False (or None if ``optional``): a string like "no" would be true."""
    if value is None and optional:
        return
    if not isinstance(value, bool) and type(value).__name__ != "bool_":
        raise InputTypeError(f"{where}: {name} must be True or False{' (or None)' if optional else ''}, "
                             f"got {got(value)}")


def text(where: str, name: str, value: Any, optional: bool = False) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str):
        raise InputTypeError(f"{where}: {name} must be a string{' (or None)' if optional else ''}, got {got(value)}")


def function(where: str, name: str, value: Any, fix: str = "", optional: bool = False) -> None:
    if value is None and optional:
        return
    if not callable(value):
        raise InputTypeError(f"{where}: {name} must be callable (a function, or an object with __call__), "
                             f"got {got(value)}" + (f"; {fix}" if fix else ""))


def _parses(value: str) -> bool:
    try:
        float(value)
    except ValueError:
        return False
    return True
