"""The user's code for ``measure`` and ``explain``, run in a child process the command can stop.

The user's code may never return, call ``sys.exit`` or ``os._exit``, crash the interpreter, or
print. In the command's own process any of these ends levelbench with the user's exit code and no
word, or mixes the user's output into a JSON document. So the command checks its options here,
then runs the work (importing the user's file, running the setup code, calling the function) in a
child (``python -m levelbench._cli.isolated FD PARENT_PID``) and renders what it sends back:

- the child's standard output is this process's standard error: the user's prints never reach
  the report or the JSON on standard output;
- ``--timeout``: past it the child (and whatever it started) is killed, and one line says what it
  was doing (the child reports each step as it starts);
- an exit or a crash of the child is one line ("called os._exit(5)", "crashed with SIGSEGV"),
  exit code 1;
- Ctrl-C, SIGTERM and SIGHUP stop the child and exit 130, with one line, as ``run`` does.

The work is a function ``module:function`` of levelbench's, called in the child as
``function(report, **kwargs)``; it returns what to send back (plain, picklable data) or raises
`Failure` with the one line to print and the exit code.
"""

from __future__ import annotations

import faulthandler
import math
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from typing import Any

from .._values.progress import ProgressLine
from .._values.settings import child_environment
from .._values.signals import killed_by
from .._values.targets import first_line
from .common import FINDINGS, INTERRUPTED, fail, stop_on_signals

NO_LIMIT = 0.0
"""``--timeout 0``: no limit."""


class Failure(Exception):
    """The work cannot be done: ``message`` (one line, complete) is printed and the command exits ``code``."""

    def __init__(self, message: str, code: int):
        super().__init__(message)
        self.code = code


def default_timeout(budget: float, base: float, per_budget: float) -> float:
    """``base + per_budget * budget`` seconds (none for an infinite budget)."""
    return NO_LIMIT if math.isinf(budget) else base + per_budget * budget


def run_in_child(command: str, work: str, kwargs: dict[str, Any], timeout: float) -> Any:
    """``work(report, **kwargs)`` in a child process, within ``timeout`` seconds (`NO_LIMIT`: none).

    Returns what ``work`` returned; otherwise prints one line and exits (the code of the `Failure`,
    1 for a timeout, an exit or a crash, 130 for Ctrl-C / SIGTERM / SIGHUP).
    """
    prefix = f"levelbench {command}"
    doing = ["starting a process for the work"]
    child: _Child | None = None
    line = ProgressLine(prefix)  # each step on a terminal's stderr, once the work has run a few seconds
    try:
        with stop_on_signals():
            child = _Child()
            try:
                child.conn.send((work, kwargs, sys.path))
            except OSError:
                pass  # the child is gone already: next_message says how
            deadline = time.monotonic() + timeout if timeout > 0 else math.inf
            while True:
                message = child.next_message(deadline)
                if message is None:  # the deadline passed
                    line.close()
                    child.kill()
                    fail(f"{prefix}: stopped after {timeout:g} s (--timeout) while {doing[-1]}; nothing was reported: "
                         f"raise --timeout (0: no limit), or fix what does not return", FINDINGS)
                kind = message[0]
                if kind == "step":
                    doing.append(message[1])
                    line(message[1])
                    continue
                line.close()
                if kind == "ok":
                    return message[1]
                elif kind == "fail":
                    fail(message[1], message[2])
                elif kind == "exit":
                    fail(f"{prefix}: the code called sys.exit({message[1]!r}) while {doing[-1]}; nothing was "
                         "reported: levelbench needs the code to return", FINDINGS)
                elif kind == "error":
                    fail(f"{prefix}: failed while {doing[-1]}: {message[1]}", FINDINGS)
                elif kind == "died":
                    fail(f"{prefix}: {_death(message[1])} while {doing[-1]}; nothing was reported", FINDINGS)
    except KeyboardInterrupt as e:
        line.close()
        signame = e.args[0] if e.args else "Ctrl-C"
        fail(f"{prefix}: interrupted ({signame}) while {doing[-1]}; nothing was reported", INTERRUPTED)
    finally:
        if child is not None:
            child.kill()


def _death(code: int) -> str:
    """Why the child ended without answering, from its exit code."""
    if (name := killed_by(code)) is not None:
        if name == "SIGKILL":
            return "the process was killed (SIGKILL: out of memory?)"
        if name == "SIGSEGV":
            return "the process crashed with SIGSEGV (a segmentation fault in native code)"
        return f"the process crashed with {name}"
    return f"the code ended the process with exit code {code} (os._exit({code}), or exit() in native code)"


class _Child:
    """The child process and its end of the socket; killed with everything it started."""

    def __init__(self) -> None:
        parent_end, child_end = socket.socketpair()
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "levelbench._cli.isolated", str(child_end.fileno()), str(os.getpid())],
                pass_fds=(child_end.fileno(),), stdin=subprocess.DEVNULL,
                stdout=sys.__stderr__.fileno() if sys.__stderr__ else subprocess.DEVNULL,  # the user's prints
                start_new_session=True,  # Ctrl-C reaches this process only: it stops the child itself
                env=child_environment(),
            )
        finally:
            child_end.close()
        self.conn = Connection(parent_end.detach())

    def next_message(self, deadline: float) -> tuple | None:
        """The child's next message, ``("died", code)`` if it ended without one, None past ``deadline``."""
        while True:
            wait = min(0.2, max(deadline - time.monotonic(), 0.0))
            try:
                if self.conn.poll(wait):
                    return self.conn.recv()
            except (EOFError, OSError):
                pass  # closed: the child is gone
            code = self.proc.poll()
            if code is not None:
                try:
                    if self.conn.poll(0):  # an answer sent just before it ended
                        return self.conn.recv()
                except (EOFError, OSError):
                    pass
                return ("died", code)
            if time.monotonic() >= deadline:
                return None

    def kill(self) -> None:
        if self.proc.poll() is None:
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                pass
        try:
            self.proc.wait(timeout=10)
        except subprocess.TimeoutExpired:
            pass
        self.conn.close()


# -- the child's side ------------------------------------------------------------------------------
def main(argv: list[str]) -> int:
    from .._measuring.worker import _die_with_parent
    from .._values.targets import load_target

    _die_with_parent()
    if os.getppid() != int(argv[2]):
        return 0  # the parent died before this child could ask to die with it
    faulthandler.enable(all_threads=False)  # a crash in native code prints where, on standard error
    conn = Connection(int(argv[1]))
    work, kwargs, parent_path = conn.recv()
    sys.path[:0] = [p for p in parent_path if p not in sys.path]

    def report(step: str) -> None:
        conn.send(("step", step))

    try:
        answer: tuple = ("ok", load_target(work)(report, **kwargs))
    except Failure as e:
        answer = ("fail", str(e), e.code)
    except SystemExit as e:
        answer = ("exit", e.code)
    except BaseException as e:  # noqa: B902 - the user's code may raise anything; say it on one line
        answer = ("error", f"{type(e).__name__}: {first_line(e)}")
    sys.stdout.flush()
    try:
        conn.send(answer)
    except Exception as e:  # an answer that does not pickle
        conn.send(("error", f"the answer could not be sent back: {type(e).__name__}: {first_line(e)}"))
    return 0


if __name__ == "__main__":
    # through the package's module, not this __main__ copy: `Failure` raised by the work is that module's class
    from levelbench._cli.isolated import main as _main

    sys.exit(_main(sys.argv))
