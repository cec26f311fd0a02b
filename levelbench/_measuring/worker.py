"""A worker process: builds its candidates and answers the parent's steps (see `levelbench._workers`).

``python -m levelbench._measuring.worker FD PARENT_PID``: FD is its end of a socket to the parent. Each message is a
tuple ``(step, *args)``; each answer ``("ok", value)`` or ``("error", text)``. The worker exits when
asked, when the socket closes, or (Linux) when its parent dies.
"""

from __future__ import annotations

import os
import sys
import traceback
from multiprocessing.connection import Connection
from typing import Any

from .lanes import LocalLane
from .._values.errors import InputError
from .._values.targets import TargetError, load_target
from .candidate import Builder, Candidate


def main(argv: list[str]) -> int:
    _die_with_parent()
    if len(argv) > 2 and os.getppid() != int(argv[2]):
        return 0  # the parent died before this worker could ask to die with it: nobody will drive it
    conn = Connection(int(argv[1]))
    lanes: dict[str, LocalLane] = {}
    while True:
        try:
            message = conn.recv()
        except (EOFError, OSError):
            return 0
        step, args = message[0], message[1:]
        if step == "exit":
            return 0
        try:
            answer: tuple[str, Any] = ("ok", _answer(step, args, lanes))
        except BaseException as e:  # noqa: B902 - user code may raise anything, SystemExit included
            if isinstance(e, KeyboardInterrupt):
                raise
            answer = ("error", _describe(e))
        try:
            conn.send(answer)
        except Exception as e:  # an answer that does not pickle
            conn.send(("error", f"the answer to {step!r} could not be sent back: {type(e).__name__}: {e}"))


def _answer(step: str, args: tuple, lanes: dict[str, LocalLane]) -> Any:
    if step == "build":
        return _build(*args, lanes=lanes)
    if step == "call":  # a function of the parent's choosing, e.g. reading a user's workload file

        target, kwargs, parent_path = args
        sys.path[:0] = [p for p in parent_path if p not in sys.path]
        return load_target(target)(**kwargs)
    if step == "adopt":
        keep = set(args[0])
        for name in [n for n in lanes if n not in keep]:
            del lanes[name]
        return None
    name, rest = args[0], args[1:]
    lane = lanes[name]
    if step == "first_call":
        return lane.first_call(portable=True)
    if step == "calibrate":
        return lane.calibrate()
    if step == "block":
        return lane.block(*rest)
    if step == "loose_sample":
        return lane.loose_sample()
    if step == "finish":
        target_reached, count_flops, extra_findings = rest
        return lane.finish(target_reached=target_reached, count_flops=count_flops, extra_findings=extra_findings)
    raise ValueError(f"unknown step {step!r}")


def _build(source: tuple, names: list[str] | None, options: Any, parent_path: list[str],
           lanes: dict[str, LocalLane]) -> dict[str, Any]:
    """Build the candidates of ``source``; keep ``names`` (all when None). Returns their infos.

    ``source`` is ``("set", TARGET, KWARGS)``: a function (``module:function``) returning
    ``(candidates, skipped)`` (e.g. a workload's, `levelbench.workloads.run.build_candidates`), or
    ``("builder", NAME, TARGET, KWARGS)``: one candidate's builder.
    """

    sys.path[:0] = [p for p in parent_path if p not in sys.path]
    kind = source[0]
    skipped: dict[str, str] = {}
    if kind == "set":
        _, target, kwargs = source
        cands, skipped = load_target(target)(**kwargs)
        cands = {name: Candidate.coerce(name, c) for name, c in cands.items()}
    elif kind == "builder":
        _, name, target, kwargs = source
        cands = {name: Builder(target, kwargs).build(name)}
    else:
        raise ValueError(f"unknown source {kind!r}")
    for name, c in cands.items():
        if names is None or name in names:
            lanes[name] = LocalLane(name, c, options)
    return {"lanes": {n: lane.info for n, lane in lanes.items()}, "skipped": skipped if names is None else {}}


def _describe(e: BaseException) -> str:
    if isinstance(e, SystemExit):
        return f"the candidate's code called sys.exit({e.code!r})"
    if isinstance(e, (InputError, TargetError)):  # a complete message about the user's input: no traceback
        return str(e)
    tail = traceback.format_exception(type(e), e, e.__traceback__, limit=-3)
    return f"{type(e).__name__}: {e}\n" + "".join(tail[1:-1]).rstrip()


PR_SET_PDEATHSIG = 1


def _die_with_parent() -> None:
    """On Linux, end this worker when the parent dies, even in the middle of a long call, and with it
    every process the workload started (see `_reaper`)."""
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes
        import signal

        ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    except (OSError, AttributeError):  # not fatal: the worker still exits when its socket closes
        return
    _reaper()


def _reaper() -> None:
    """Fork a reaper: a process that waits, in this worker's process group, for the worker to end, then
    kills the group. The parent kills the group itself when it stops a worker (a timeout, Ctrl-C); but
    when the parent is killed outright (SIGKILL), only the worker dies with it (PDEATHSIG), and what the
    workload started (``subprocess.Popen(["sleep", "1000"])`` in a build) would live on, orphaned. The
    reaper is told of the worker's end by the kernel (its own PDEATHSIG), whatever the worker is doing.

    Only a worker leading a process group of its own (the parent starts it in a new session) has one: a
    group shared with others is not this worker's to kill."""
    import signal

    worker = os.getpid()
    if os.getpgrp() != worker:
        return
    try:
        pid = os.fork()
    except OSError:
        return
    if pid:
        return
    try:  # the reaper: no Python beyond these calls, and out with os._exit (no atexit, no flushing)
        import ctypes

        os.closerange(3, 65536)  # the socket to the parent among them: the worker's end alone tells it of a death
        signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGTERM])
        if ctypes.CDLL(None, use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM) != 0:
            os._exit(0)  # it could not learn of the worker's end: no reaper
        if os.getppid() == worker:  # else the worker has ended already
            signal.sigwait([signal.SIGTERM])  # the worker ended (or someone asked this group to)
        os.killpg(os.getpgrp(), signal.SIGKILL)  # this reaper included
    finally:
        os._exit(0)


if __name__ == "__main__":
    sys.exit(main(sys.argv))
