"""`gc_paused`: no cyclic garbage collection inside a block.

Timing uses it so that a collection never lands in a sample; the doctor uses it because syntax
trees are many small acyclic objects, whose building the collector only slows (~30%).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused(collect: bool = False) -> Iterator[None]:
    """No garbage collection inside the block (``collect``: a full collection first)."""
    was_enabled = gc.isenabled()
    if collect:
        gc.collect()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()
