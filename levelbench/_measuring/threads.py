"""Helper threads that keep a core busy after a call returns, and waiting until they stop.

The thread pools behind NumPy (OpenBLAS) and PyTorch (OpenMP) do not sleep when a parallel call
ends: their threads spin, waiting for more work, for a while (here OpenBLAS ~105 ms, PyTorch's
libgomp ~10 ms; XLA's pool parks at once; docs/design/isolation.md has the measurements). Whatever runs
next on the machine, in the same process or another, gets one core fewer while they spin. So
levelbench waits, between one candidate's block of samples and the next's, until no helper thread
of the processes it runs candidates in is running. A spinning thread shows as running ("R") in
``/proc/PID/task/TID/stat`` however it spins; its CPU-time counters can lag by a scheduler tick,
so the state, not the counters, is what is read here.

Where there is no ``/proc`` (macOS, Windows) the wait is a fixed gap (``QUIET.fallback_gap``),
longer than the spin of any pool measured. The waiting rules are `Quiet` in settings.
"""

from __future__ import annotations

import dataclasses
import os
import threading
import time
from collections.abc import Iterable, Sequence

from .._values.settings import QUIET


@dataclasses.dataclass(frozen=True)
class QuietWait:
    """How long helper threads kept running after a block, before the next one started.

    Attributes:
        seconds: the wait (from the end of the block until every helper thread was idle).
        quiet: False if ``QUIET.limit`` passed with threads still running (the next block started anyway).
        running: ``"pid/tid name"`` of the threads still running when ``quiet`` is False.
        measured: False where thread states cannot be read and a fixed gap was slept instead.
    """

    seconds: float
    quiet: bool = True
    running: tuple[str, ...] = ()
    measured: bool = True


def can_inspect() -> bool:
    """Whether this system shows per-thread states (Linux ``/proc``)."""
    return os.path.isdir(f"/proc/{os.getpid()}/task")


def running_threads(pids: Iterable[int], exclude: Sequence[int] = ()) -> list[str]:
    """``"pid/tid name"`` of every thread of ``pids`` that is running or waiting for a CPU.

    ``exclude`` lists thread ids not to count (the caller's own thread, which is running).
    """
    found = []
    for pid in pids:
        try:
            tids = os.listdir(f"/proc/{pid}/task")
        except OSError:  # the process has ended: nothing of it runs
            continue
        for tid in tids:
            if int(tid) in exclude:
                continue
            try:
                with open(f"/proc/{pid}/task/{tid}/stat") as f:
                    stat = f.read()
            except OSError:  # the thread has ended
                continue
            # "tid (name) state ...": the name may hold spaces and parentheses, so split at the last ')'
            name, _, rest = stat.partition(" (")[2].rpartition(")")
            if rest.split(None, 1)[0] == "R":
                found.append(f"{pid}/{tid} {name}")
    return found


def wait_until_quiet(pids: Iterable[int], *, exclude_caller: bool = False, poll: float = QUIET.poll,
                     confirm: int = QUIET.confirm, limit: float = QUIET.limit) -> QuietWait:
    """Wait until no thread of ``pids`` runs (``confirm`` looks in a row), at most ``limit`` seconds.

    ``exclude_caller`` leaves the calling thread out (when ``pids`` includes this process).
    """
    pids = list(pids)
    start = time.perf_counter()
    if not can_inspect():
        time.sleep(QUIET.fallback_gap)
        return QuietWait(time.perf_counter() - start, measured=False)
    exclude = (threading.get_native_id(),) if exclude_caller else ()
    calm, first_calm = 0, 0.0
    while True:
        running = running_threads(pids, exclude)
        elapsed = time.perf_counter() - start
        if running:
            calm = 0
        else:
            calm += 1
            if calm == 1:
                first_calm = elapsed
            if calm >= confirm:
                # the looks that confirmed it are not part of the spin: count to the first quiet look
                return QuietWait(first_calm)
        if elapsed >= limit:
            return QuietWait(elapsed, quiet=False, running=tuple(running))
        time.sleep(poll)


def pools() -> list[str]:
    """The thread pools loaded in this process, for evidence: ``"openblas: 2 threads"``, ..."""
    out = []
    try:
        from threadpoolctl import threadpool_info

        for p in threadpool_info():
            library = os.path.basename(p.get("filepath", "")).split(".so")[0]
            out.append(f"{p.get('internal_api', '?')} ({library}): {p.get('num_threads', '?')} threads")
    except Exception:  # evidence only: never fail for it
        pass
    xla = _threads_named("tf_XLAEigen")
    if xla:
        out.append(f"XLA CPU (Eigen): {xla} threads")
    return out


def _threads_named(prefix: str) -> int:
    if not can_inspect():
        return 0
    n = 0
    for tid in os.listdir(f"/proc/{os.getpid()}/task"):
        try:
            with open(f"/proc/{os.getpid()}/task/{tid}/comm") as f:
                n += f.read().startswith(prefix)
        except OSError:
            continue
    return n
