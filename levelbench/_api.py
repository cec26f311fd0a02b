"""The public `measure` and `compare`: the engines below, plus ``save=`` into the results store.

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
