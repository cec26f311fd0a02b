"""Signals held while something must not be cut in half (a result recorded, worker processes started)."""

from __future__ import annotations

import contextlib
import os
import signal
from collections.abc import Iterator


@contextlib.contextmanager
def interrupts_held() -> Iterator[list[KeyboardInterrupt]]:
    """Hold Ctrl-C (and SIGTERM/SIGHUP) while something must not be cut in half (a finished result recorded,
    worker processes started and kept track of): a signal that comes meanwhile is handled on leaving, by the
    handler that was in place, and the ``KeyboardInterrupt`` it raises is put in the yielded list instead of
    raised."""
    caught: list[KeyboardInterrupt] = []
    came: list[int] = []
    wanted = [getattr(signal, n) for n in ("SIGINT", "SIGTERM", "SIGHUP") if hasattr(signal, n)]
    try:
        previous = {s: signal.signal(s, lambda signum, frame: came.append(signum)) for s in wanted}
    except ValueError:  # not the main thread (an embedding): nothing can be held
        previous = {}
    try:
        yield caught
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)
        for signum in came[:1]:
            handler = previous[signum]
            try:
                if callable(handler):
                    handler(signum, None)
                elif handler == signal.SIG_DFL:
                    os.kill(os.getpid(), signum)
            except KeyboardInterrupt as e:
                caught.append(e)


@contextlib.contextmanager
def signals_named(seen: list[str]) -> Iterator[None]:
    """Remember in ``seen`` which stop signal came ("Ctrl-C", "SIGTERM" or "SIGHUP"), then let the handler
    in place act on it. For code that turns a signal into its own ``KeyboardInterrupt`` and loses which one
    it was (Ray does, raising a bare one from inside ``ray.wait``)."""
    names = {"SIGINT": "Ctrl-C", "SIGTERM": "SIGTERM", "SIGHUP": "SIGHUP"}
    wanted = {getattr(signal, n): said for n, said in names.items() if hasattr(signal, n)}
    previous: dict[int, object] = {}

    def remember(signum: int, frame: object) -> None:
        seen.append(wanted[signum])
        handler = previous[signum]
        if callable(handler):
            handler(signum, frame)
        elif handler == signal.SIG_DFL:
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)

    try:
        for s in wanted:
            if signal.getsignal(s) != signal.SIG_IGN:
                previous[s] = signal.signal(s, remember)
    except ValueError:  # not the main thread: nothing to remember
        pass
    try:
        yield
    finally:
        for s, handler in previous.items():
            signal.signal(s, handler)  # type: ignore[arg-type]


def killed_by(returncode: int) -> str | None:
    """The signal that ended a child process, named from its return code as `subprocess` gives it
    (``-N``: killed by signal N): ``"SIGKILL"``, or ``"signal 99"`` for one this platform does not
    name; None where the process ended by itself (a code >= 0). Each caller says what it means."""
    if returncode >= 0:
        return None
    try:
        return signal.Signals(-returncode).name
    except ValueError:
        return f"signal {-returncode}"
