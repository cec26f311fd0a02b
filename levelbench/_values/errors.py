"""`InputError`: wrong input from the user, whose message says everything (no traceback is shown)."""

from __future__ import annotations

import os
import sys
import warnings


class InputError(ValueError):
    """What was expected, what was got and the fix, in one message; shown without a traceback,
    also when raised in a worker process."""


class InputTypeError(InputError, TypeError):
    """An argument of the wrong type: an `InputError` that ``except TypeError`` also catches."""


def warn_user(message: str, category: type[Warning] = RuntimeWarning) -> None:
    """Warn pointing at the user's code that led here (the first caller outside levelbench and click), never
    at one of levelbench's own lines, which would be printed under the message as if it were the culprit.
    Called from the command line, where no such caller exists, the warning names levelbench and shows no
    source line."""
    own = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,
           os.sep + "click" + os.sep)
    frame, level = sys._getframe(1), 2  # stacklevel 2 is warn_user's caller
    while frame is not None and any(p in os.path.abspath(frame.f_code.co_filename) for p in own):
        frame, level = frame.f_back, level + 1
    name = frame.f_code.co_filename if frame is not None else ""
    if frame is None or name.startswith("<frozen") or os.path.basename(name) == "levelbench":
        warnings.warn_explicit(message, category, filename="levelbench", lineno=0, module="levelbench")
    else:
        warnings.warn(message, category, stacklevel=level)
