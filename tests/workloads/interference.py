"""Candidates that slow each other down the way thread pools do, for the isolation tests.

``spinner``'s call sleeps half a millisecond (using no CPU, so its own time does not depend on
what runs beside it) and leaves helper threads, one per core, burning the cores for ``spin_ms``
afterwards (as OpenBLAS's threads spin ~0.1 s after each call); ``victim`` hashes two
buffers on two threads at once, so it needs both cores of a 2-core machine. Timed right after a
spinner block, a victim call shares the cores with the spinning threads and takes about twice as
long (still ~1.7x when another process already holds a core). hashlib releases the GIL for
large buffers, so the threads really run in parallel.

The buffers are sized by time, not bytes: SHA-256's speed differs 5x between our machines (a 4 MB
pass took ~2 ms where this was written, 10 ms on a Sapphire Rapids VM), and the effect needs a victim
block (``Comparing.block_seconds`` of samples, 30 at most) short enough for one spin to cover it.
With 4 MB on the slower CPU a victim block outlasted the spin, and back to back the victim read
no slower.

Each function here also works as a builder (``compare({"v": "interference.py:victim"}, isolate=True)``).
"""

from __future__ import annotations

import functools
import hashlib
import os
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import numpy as np

import levelbench
from levelbench.workloads import Param, Workload

HASH_MS = 2.0  # what one hash of a victim's buffer, or one pass of a spinning helper, takes


def _hash(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


@functools.lru_cache(maxsize=None)
def bytes_hashed_in(ms: float) -> int:
    """How many bytes SHA-256 hashes in about ``ms`` milliseconds on this machine (best of 5 on 1 MB)."""
    probe = bytes(1 << 20)
    _hash(probe)  # touches the pages
    best = float("inf")
    for _ in range(5):
        start = time.perf_counter()
        _hash(probe)
        best = min(best, time.perf_counter() - start)
    return max(64 << 10, int(len(probe) * ms / 1e3 / best))


def victim(mb: float = 0.0) -> levelbench.Candidate:
    """Hashes a buffer on each of two threads per call: ``mb`` MB each, or (0) what takes ``HASH_MS`` here."""
    pool = ThreadPoolExecutor(2)
    data = bytes(int(mb * (1 << 20)) if mb > 0 else bytes_hashed_in(HASH_MS))
    x = np.zeros(4)

    def hash_on_two_threads(x):
        list(pool.map(_hash, [data, data]))
        return x + 1

    return levelbench.Candidate(hash_on_two_threads, (x,))


def spinner(spin_ms: float = 60.0) -> levelbench.Candidate:
    until = [0.0]
    chunk = bytes(bytes_hashed_in(HASH_MS))  # one pass: the GIL is released for its length
    wakes = [threading.Event() for _ in os.sched_getaffinity(0)]

    def helper(wake: threading.Event) -> None:
        while True:
            wake.wait()
            wake.clear()
            while time.perf_counter() < until[0]:
                _hash(chunk)

    for wake in wakes:
        threading.Thread(target=helper, args=(wake,), daemon=True).start()
    x = np.zeros(4)

    def returns_then_spins(x):
        time.sleep(0.0005)  # no CPU of its own: its time does not depend on the helpers it woke
        until[0] = time.perf_counter() + spin_ms / 1e3
        for wake in wakes:
            wake.set()
        return x + 1

    return levelbench.Candidate(returns_then_spins, (x,))


class FakeSpin:
    """The same pair on a fake clock (pass ``timer=fake.clock``), for deterministic tests of what compare
    makes of it: a ``spinner`` call (0.5 ms) leaves helpers spinning for 60 ms of fake time, and a
    ``victim`` call (10 ms) takes ``slowdown`` times as long while they spin. Creating one replaces
    compare's wait between blocks (through ``monkeypatch``) by one that lasts until the spin ends, and says so.
    """

    def __init__(self, monkeypatch, slowdown: float = 2.0) -> None:
        from levelbench._measuring import compare as compare_module
        from levelbench._measuring.threads import QuietWait

        self.now, self.spin_until, self.slowdown = 0.0, 0.0, slowdown

        def wait_until_quiet(pids, exclude_caller=False):
            waited = max(0.0, self.spin_until - self.now)
            self.now += waited
            return QuietWait(waited)

        monkeypatch.setattr(compare_module, "wait_until_quiet", wait_until_quiet)

    def clock(self) -> float:
        return self.now

    def spinner(self, x):
        self.now += 0.5e-3
        self.spin_until = self.now + 0.06
        return x + 1

    def victim(self, x):
        self.now += 10e-3 * (self.slowdown if self.now < self.spin_until else 1.0)
        return x + 1

    def candidates(self) -> dict[str, levelbench.Candidate]:
        x = np.zeros(4)
        return {"victim": levelbench.Candidate(self.victim, (x,)), "spinner": levelbench.Candidate(self.spinner, (x,))}


def _pair(spin_ms: float, mb: float, seed: int):
    return {"victim": victim(mb), "spinner": spinner(spin_ms)}


PAIR = Workload("interfering pair", "a candidate whose threads keep spinning, and one that needs both cores",
                _pair, params=[Param("spin_ms", 60.0, float, "spin after each call"),
                               Param("mb", 0.0, float, "MB hashed per thread (0: what takes 2 ms here)")], baseline="victim")


# -- builders for the worker-protocol tests ---------------------------------------------------
def logged(name: str, log: str, ms: float = 2.0) -> levelbench.Candidate:
    """Sleeps ``ms`` per call and appends "name start end pid" to ``log``: who ran when, and where."""
    x = np.zeros(3)

    def f(x):
        start = time.monotonic()
        time.sleep(ms / 1e3)
        with open(log, "a") as out:
            out.write(f"{name} {start} {time.monotonic()} {os.getpid()}\n")
        return x + 1

    return levelbench.Candidate(f, (x,))


def plus_one(ms: float = 1.0):
    x = np.zeros(3)

    def f(x):
        time.sleep(ms / 1e3)
        return x + 1

    return f, (x,)


def plus_two():
    x = np.zeros(3)
    return (lambda x: x + 2), (x,)


def dies_after(calls: int = 40, code: int = 7):
    """A candidate whose process exits with ``code`` at call number ``calls`` (a crash mid-round)."""
    x = np.zeros(3)
    count = [0]

    def f(x):
        count[0] += 1
        if count[0] >= calls:
            os._exit(code)
        time.sleep(0.001)
        return x + 1

    return f, (x,)


def hangs_after(calls: int = 40):
    x = np.zeros(3)
    count = [0]

    def f(x):
        count[0] += 1
        if count[0] >= calls:
            time.sleep(3600)
        time.sleep(0.001)
        return x + 1

    return f, (x,)


def not_a_candidate():
    return 42


# -- a run that is surely sampling when a test interrupts it ----------------------------------
PAUSE_DIR = "LEVELBENCH_TEST_PAUSE_DIR"  # the folder of the two files below, from the test's environment
PAUSE_AT_CALL = 10  # past the first call and calibration (1-2 calls at 20 ms): in the first block (10 calls)


def _paused_pair(seed: int):
    """``held`` sleeps 20 ms a call; at its ``PAUSE_AT_CALL``-th call, inside a block of samples, it writes
    ``sampling`` in the folder named by ``$LEVELBENCH_TEST_PAUSE_DIR`` and waits (at most 120 s) until the
    test writes ``signalled`` there: the run cannot end before the test's signal, whatever the load."""
    folder = os.environ[PAUSE_DIR]
    x = np.zeros(3)
    count = [0]

    def held(x):
        count[0] += 1
        time.sleep(0.02)
        if count[0] == PAUSE_AT_CALL:
            with open(os.path.join(folder, "sampling"), "w") as out:
                out.write(str(os.getpid()))
            until = time.monotonic() + 120
            while not os.path.exists(os.path.join(folder, "signalled")) and time.monotonic() < until:
                time.sleep(0.01)
        return x + 1

    def other(x):
        time.sleep(0.02)
        return x + 1

    return {"held": levelbench.Candidate(held, (x,)), "other": levelbench.Candidate(other, (x,))}


PAUSED = Workload("paused pair", "a candidate that holds its worker mid-block until the test says so",
                  _paused_pair, baseline="held")
