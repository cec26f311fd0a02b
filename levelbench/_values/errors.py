"""`InputError`: wrong input from the user, whose message says everything (no traceback is shown)."""

from __future__ import annotations


class InputError(ValueError):
    """What was expected, what was got and the fix, in one message; shown without a traceback,
    also when raised in a worker process."""


class InputTypeError(InputError, TypeError):
    """An argument of the wrong type: an `InputError` that ``except TypeError`` also catches."""
