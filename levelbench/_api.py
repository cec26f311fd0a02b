"""The public `measure`, `measure_expression` and `compare`: the engines below, plus ``save=`` into the results store.

The engines (`levelbench._measuring`) know nothing of the store, which sits above them; this
module joins the two for the library's users, the magics and the pytest fixture.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable, Mapping
from typing import Any

from ._measuring.compare import compare as _compare
from ._measuring.measure import measure as _measure
from ._results.comparison import Comparison
from ._results.measurement import Measurement
from ._values.arguments import got
from ._values.errors import InputTypeError
from ._values.statements import split_call
from .store import open_store


@functools.wraps(_measure)
def measure(fn: Callable[..., Any], *args: Any, save: bool | str = False, **kwargs: Any) -> Measurement:
    where = _database(save, "measure")
    m = _measure(fn, *args, **kwargs)
    if save:
        with open_store(where) as store:
            store.save_measurement(m, label=m.label)
    return m


measure.__doc__ = (_measure.__doc__ or "") + """
    ``save=True`` records the measurement in the results database (``$LEVELBENCH_DB`` or
    ``.levelbench/results.db``); ``save="path.db"`` in that file.
"""


class ExpressionFailed(Exception):
    """`measure_expression` could not time the expression: the setup code or the expression raised. The
    message says which, with the exception's type and message (one line, complete)."""


def measure_expression(expr: str, setup: str = "", *, progress: Callable[[str], None] | None = None,
                       **kwargs: Any) -> Measurement:
    """Time the Python expression ``expr`` after running ``setup`` once, as ``levelbench measure`` does:
    ``python -m timeit`` that waits for JAX/PyTorch results and keeps the first call apart.

    ``setup`` runs in a fresh namespace, which ``expr`` then reads. An expression that is a call,
    ``f(x, n=2)``, is measured as ``measure(f, x, n=2)`` (the arguments evaluated once, not timed);
    any other is timed as a whole. ``kwargs`` are `measure`'s (``budget``, ``rel_ci``, ``number``,
    ``save``, ...); the label defaults to ``expr``. ``progress`` is told each step as it starts.
    Raises `ExpressionFailed` if the setup code or the expression fails.

    !!! Example
        ```python
        m = levelbench.measure_expression("np.sort(a)", "import numpy as np; a = np.random.rand(10**6)")
        ```
    """
    say = progress or (lambda step: None)
    namespace: dict[str, Any] = {"__name__": "__levelbench_measure__"}
    say("running the setup code")
    try:
        exec(compile(setup, "<setup>", "exec"), namespace)
    except Exception as e:
        raise ExpressionFailed(f"the setup code failed: {type(e).__name__}: {e}") from None
    say(f"timing {expr!r}")
    kwargs.setdefault("label", expr)
    try:
        fn, args, call_kwargs = split_call(expr, compile(expr, "<expr>", "eval"), namespace)
        return measure(fn, *args, **kwargs, **call_kwargs)
    except Exception as e:
        raise ExpressionFailed(f"evaluating {expr!r} failed: {type(e).__name__}: {e}") from None


@functools.wraps(_compare)
def compare(candidates: Mapping[str, Any], *, save: bool | str = False, **kwargs: Any) -> Comparison:
    where = _database(save, "compare")
    c = _compare(candidates, **kwargs)
    if save:
        with open_store(where) as store:
            store.save_comparison(c, label=c.title or c.baseline)
    return c


compare.__doc__ = (_compare.__doc__ or "") + """
    ``save=True`` records the comparison in the results database (``save="path.db"``: that file).
"""


def _database(save: Any, caller: str) -> str | None:
    """The database ``save=`` names: None for the default one (``save=True``), else the path."""
    if isinstance(save, bool) or save is None:
        return None
    if isinstance(save, (str, os.PathLike)):
        return os.fspath(save)
    raise InputTypeError(f"{caller}: save must be True (the default database), False, or a database path "
                         f"such as 'results.db', got {got(save)}")
