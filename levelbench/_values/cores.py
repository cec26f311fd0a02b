"""How many cores this process may use: what the doctor's parallel parts, levelbench.nn's native
kernel and the thread checks size themselves to (the affinity mask, not the machine's core count:
under `taskset` or a container's CPU set the two differ)."""

from __future__ import annotations

import os


def usable_cores() -> int:
    """The cores this process may run on: its affinity mask where the platform has one, else every core."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1
