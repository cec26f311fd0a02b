"""The public `measure` and `compare`: the engines below, plus ``save=`` into the results store.

The engines (`levelbench._measuring`) know nothing of the store, which sits above them; this
module joins the two for the library's users, the magics and the pytest fixture.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping
from typing import Any

from ._measuring.compare import compare as _compare
from ._measuring.measure import measure as _measure
from ._results.comparison import Comparison
from ._results.measurement import Measurement


@functools.wraps(_measure)
def measure(fn: Callable[..., Any], *args: Any, save: bool | str = False, **kwargs: Any) -> Measurement:
    m = _measure(fn, *args, **kwargs)
    if save:
        from .store import open_store

        with open_store(save if isinstance(save, str) else None) as store:
            store.save_measurement(m, label=m.label)
    return m


measure.__doc__ = (_measure.__doc__ or "") + """
    ``save=True`` records the measurement in the results database (``$LEVELBENCH_DB`` or
    ``.levelbench/results.db``); ``save="path.db"`` in that file.
"""


@functools.wraps(_compare)
def compare(candidates: Mapping[str, Any], *, save: bool | str = False, **kwargs: Any) -> Comparison:
    c = _compare(candidates, **kwargs)
    if save:
        from .store import open_store

        with open_store(save if isinstance(save, str) else None) as store:
            store.save_comparison(c, label=c.title or c.baseline)
    return c


compare.__doc__ = (_compare.__doc__ or "") + """
    ``save=True`` records the comparison in the results database (``save="path.db"``: that file).
"""
