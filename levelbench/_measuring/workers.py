"""Worker processes that time candidates apart from each other's thread pools.

Each worker builds its candidates itself (from a workload or a builder: objects of the user's
frameworks cannot cross a process boundary) and hosts them as `LocalLane`s; the parent drives
each lane through the same steps as an in-process one, over a socket (`WorkerLane`), and
interleaves blocks of samples across the workers. Between two blocks the parent waits until no
thread of any worker runs (`_threads.wait_until_quiet`), so a worker waiting for its turn uses
no CPU, and neither do the pools of the worker that went before.

A worker that crashes, is killed or hangs past the deadline takes only its own candidates with
it: they are reported as failed and the others go on.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Mapping
from multiprocessing.connection import Connection
from typing import Any

from .lanes import Block, Calibration, FirstCall, LaneInfo
from .._results.measurement import Measurement
from .._values.findings import Finding
from .._values.settings import RUNNING, child_environment
from .._values.signals import killed_by
from .sampler import Options

GROUPINGS = ("framework", "candidate")


class WorkerError(RuntimeError):
    """A worker could not do what was asked: it died, or the step raised in it (the message says which)."""


class WorkerDied(WorkerError):
    """The worker process ended without answering (a crash, a kill, out of memory)."""


class StepFailed(WorkerError):
    """A step raised an exception inside the worker; the message holds its type, text and traceback tail."""


class DeadlineExceeded(TimeoutError):
    """No answer before the deadline; the workers were stopped."""


class Worker:
    """One worker process (``python -m levelbench._worker``), answering steps over a socket."""

    def __init__(self, index: int) -> None:
        self.index = index
        parent_end, child_end = socket.socketpair()
        self._log = tempfile.TemporaryFile()  # the worker's stdout and stderr: the tail explains a death
        try:
            self.proc = subprocess.Popen(
                [sys.executable, "-m", "levelbench._measuring.worker", str(child_end.fileno()), str(os.getpid())],
                pass_fds=(child_end.fileno(),), stdin=subprocess.DEVNULL, stdout=self._log, stderr=self._log,
                start_new_session=True,  # Ctrl-C reaches the parent only: it stops the workers itself
                env=child_environment(),
            )
        finally:
            child_end.close()
        self.conn = Connection(parent_end.detach())

    @property
    def pid(self) -> int:
        return self.proc.pid

    def send(self, step: str, *args: Any) -> None:
        try:
            self.conn.send((step, *args))
        except OSError:
            raise WorkerDied(self._death()) from None

    def receive(self, deadline: float | None = None) -> Any:
        """The answer to the last step sent; raises `WorkerError` or `DeadlineExceeded`."""
        while True:
            wait = 0.5 if deadline is None else min(0.5, max(deadline - time.monotonic(), 0.0))
            try:
                ready = self.conn.poll(wait)
            except OSError:
                raise WorkerDied(self._death()) from None
            if ready:
                try:
                    status, value = self.conn.recv()
                except (EOFError, OSError):
                    raise WorkerDied(self._death()) from None
                if status == "error":
                    raise StepFailed(value)
                return value
            if self.proc.poll() is not None:
                raise WorkerDied(self._death())
            if deadline is not None and time.monotonic() >= deadline:
                raise DeadlineExceeded("no answer before the deadline")

    def call(self, step: str, *args: Any, deadline: float | None = None) -> Any:
        self.send(step, *args)
        return self.receive(deadline)

    def stop(self, graceful: bool = True) -> None:
        """Ask the worker to exit (killed if it has not within ``RUNNING.stop_grace``), or kill it at once."""
        if self.proc.poll() is None:
            try:
                if not graceful:
                    raise OSError("stop at once")
                self.conn.send(("exit",))
                self.proc.wait(timeout=RUNNING.stop_grace)
                _end_group(self.proc.pid)  # what the workload started, and the worker's reaper
            except (OSError, subprocess.TimeoutExpired):
                _kill(self.proc)
        self.conn.close()
        self._log.close()

    def _death(self) -> str:
        try:
            self.proc.wait(timeout=5)
        except subprocess.TimeoutExpired:
            _kill(self.proc)
        code = self.proc.returncode
        if code is not None and (name := killed_by(code)) is not None:
            why = "was killed by the kernel (out of memory?)" if name == "SIGKILL" else f"died with {name}"
            reason = f"the worker {why}"
        else:
            reason = f"the worker exited with code {code}"
        try:
            self._log.seek(0)
            lines = self._log.read().decode(errors="replace").splitlines()
        except (OSError, ValueError):
            lines = []
        last = [line for line in lines if line.strip()][-8:]
        return reason + (":\n" + "\n".join(last) if last else "")


def _kill(proc: subprocess.Popen) -> None:
    """Kill the worker and its process group (it leads one: what its workload started is in it)."""
    _end_group(proc.pid)
    proc.wait()


def _end_group(group: int, wait: float = 2.0) -> None:
    """Kill every process of the worker's process group ``group``, and (where /proc tells) wait up to
    ``wait`` seconds until none is left running: the worker's reaper (see `worker._reaper`) and anything
    its workload started are gone when a worker's stop returns, not a moment later."""
    try:
        os.killpg(group, signal.SIGKILL)
    except (ProcessLookupError, PermissionError):
        return
    deadline = time.monotonic() + wait
    while _group_running(group) and time.monotonic() < deadline:
        time.sleep(0.005)


def _group_running(group: int) -> bool:
    """Whether a process of group ``group`` still runs (not a zombie); False where /proc cannot say."""
    try:
        entries = os.listdir("/proc")
    except OSError:
        return False
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                fields = f.read().rpartition(b")")[2].split()
        except OSError:
            continue
        if len(fields) > 2 and fields[0] != b"Z" and int(fields[2]) == group:
            return True
    return False


class WorkerLane:
    """A candidate in a worker process: the steps of a `LocalLane`, asked over the socket."""

    def __init__(self, worker: Worker, info: LaneInfo, deadline: float | None) -> None:
        self.worker, self.info, self.name, self.deadline = worker, info, info.name, deadline

    def _ask(self, step: str, *args: Any) -> Any:
        return self.worker.call(step, self.name, *args, deadline=self.deadline)

    def first_call(self) -> FirstCall:
        return self._ask("first_call")

    def calibrate(self) -> Calibration:
        return self._ask("calibrate")

    def block(self, samples: int, warmup: int = 0) -> Block:
        return self._ask("block", samples, warmup)

    def loose_sample(self) -> float | None:
        return self._ask("loose_sample")

    def finish(self, *, target_reached: bool, count_flops: bool = True, environment: dict[str, Any] | None = None,
               extra_findings: str | None = None) -> tuple[Measurement, tuple[Finding, ...]]:
        return self._ask("finish", target_reached, count_flops, extra_findings)

    def close(self) -> None:
        pass  # the worker's owner stops it


class Workers:
    """The worker processes of one comparison, stopped together (also on Ctrl-C and errors)."""

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = deadline
        self.all: list[Worker] = []

    def start(self) -> Worker:
        w = Worker(len(self.all))
        self.all.append(w)
        return w

    @property
    def pids(self) -> list[int]:
        return [w.pid for w in self.all if w.proc.poll() is None]

    def stop(self, graceful: bool = True) -> None:
        """Stop every worker: asked to exit, or (not ``graceful``: Ctrl-C, an error) killed at once."""
        for w in self.all:
            w.stop(graceful)

    def __enter__(self) -> "Workers":
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        self.stop(graceful=kind is None)

    def call(self, target: str, kwargs: dict[str, Any]) -> Any:
        """``target(**kwargs)`` (a ``module:function``) in a worker of its own, before the deadline."""
        return self.start().call("call", target, kwargs, sys.path, deadline=self.deadline)

    # -- building ------------------------------------------------------------------------------
    def candidate_set(self, target: str, kwargs: dict[str, Any], options: Options, grouping: str = "framework",
                      progress: Callable[[str, float], None] | None = None,
                      ) -> tuple[dict[str, WorkerLane], dict[str, str]]:
        """Lanes for the candidates ``target(**kwargs)`` builds (a function named ``module:function``
        returning ``(candidates, skipped)``), grouped into workers; and the candidates it skipped.

        The first worker builds every candidate and says which framework each is in; it keeps
        the first group, and one more worker per other group builds and keeps that group.
        """
        if grouping not in GROUPINGS:
            raise ValueError(f"grouping must be one of {', '.join(GROUPINGS)}, got {grouping!r}")
        report = progress or (lambda stage, fraction: None)
        source = ("set", target, kwargs)
        report("building candidates", 0.0)
        first = self.start()
        plan = first.call("build", source, None, options, sys.path, deadline=self.deadline)
        infos: dict[str, LaneInfo] = plan["lanes"]
        groups = _groups(infos.values(), grouping)
        if not groups:
            return {}, plan["skipped"]
        first.call("adopt", groups[0], deadline=self.deadline)
        placed = {name: first for name in groups[0]}
        others = [(self.start(), names) for names in groups[1:]]
        for w, names in others:
            w.send("build", source, names, options, sys.path)
        for i, (w, names) in enumerate(others):
            report("starting workers", (i + 1) / len(others))
            w.receive(self.deadline)
            placed.update({name: w for name in names})
        lanes = {name: WorkerLane(placed[name], info, self.deadline) for name, info in infos.items()}
        return lanes, plan["skipped"]

    def builders(self, builders: Mapping[str, Any], options: Options,
                 progress: Callable[[str, float], None] | None = None) -> dict[str, WorkerLane]:
        """One worker per builder, started together; lanes in the order given."""
        report = progress or (lambda stage, fraction: None)
        started = []
        for name, b in builders.items():
            w = self.start()
            w.send("build", ("builder", name, b.portable_target, b.kwargs), None, options, sys.path)
            started.append((name, w))
        lanes = {}
        for i, (name, w) in enumerate(started):
            report("starting workers", i / len(started))
            try:
                infos = w.receive(self.deadline)["lanes"]
            except StepFailed as e:
                raise StepFailed(f"building candidate {name!r} failed in its worker: {e}") from None
            lanes[name] = WorkerLane(w, infos[name], self.deadline)
        return lanes


def _groups(infos: Iterable[LaneInfo], grouping: str) -> list[list[str]]:
    """Candidate names by worker, in the candidates' order: one group per framework or per candidate."""
    groups: dict[str, list[str]] = {}
    for info in infos:
        key = info.framework if grouping == "framework" else info.name
        groups.setdefault(key, []).append(info.name)
    return list(groups.values())
