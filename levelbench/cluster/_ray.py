"""Driving a sweep on a Ray cluster: connect, find the nodes, hand out units one node at a time.

The driver keeps the schedule itself rather than leaving it to Ray's: each unit is pinned to a
node that is free (a hard node-affinity strategy, plus the node's ``levelbench_node`` resource and
all its CPUs, so even a second driver cannot put a unit beside it), and the driver knows at every
moment which unit runs where. That is what lets it retry a unit whose node died on another node of
the same kind, count units per node, and cancel exactly what runs on Ctrl-C.
"""

from __future__ import annotations

import collections
import contextlib
import dataclasses
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any

from .._results.workload import WorkloadResult
from .._values.signals import signals_named
from ..workloads.run import Job
from ._nodes import NODE_RESOURCE, ClusterError, Node
from .._measuring.environment import cpu_model
from ..workloads.run import run_job

CONNECT_TIMEOUT = 5.0
"""Seconds to wait for the cluster's head to accept a connection."""
PROBE_TIMEOUT = 120.0
"""Seconds to wait for every node to describe itself (a cold node starts a Python worker first)."""
HANG_MARGIN = 120.0
"""A unit still running this long after its own --timeout has hung outside its worker: it is cancelled."""
HEAD_CHECK_EVERY = 1.0
"""Seconds between two checks that the cluster's head still answers while units run."""
HEAD_LOST_AFTER = 3
"""Checks in a row the head must fail (each waiting up to `CONNECT_TIMEOUT`) to be taken for gone: at
most 15 s for a head whose packets vanish, a second for one whose port is closed. Ray's own core
would wait 60 s, then end this process without a word, the run left unrecorded."""


class HeadLost(ClusterError):
    """The cluster's head stopped answering while units ran: what ran there is lost, the sweep cannot go on."""


@dataclasses.dataclass(frozen=True)
class UnitEvent:
    """What happened to one unit, for progress: ``started``, ``finished``, ``retried`` on another node."""

    what: str
    job: Job
    kind: str
    node: Node
    result: WorkloadResult | None = None


@dataclasses.dataclass
class _Unit:
    job: Job
    kind: str
    attempts: int = 0
    avoid: frozenset[str] = frozenset()  # node ids it must not run on again (their node died under it)


def connect(address: str | None) -> Any:
    """The ``ray`` module, connected to the cluster at ``address`` (None: ``RAY_ADDRESS`` or a local head).

    Whatever address Ray would use (given, ``RAY_ADDRESS``, or the one the last ``ray start`` on
    this machine left in ``ray_current_cluster``) is tried first with a plain connection: Ray itself
    would retry a dead one for minutes, deaf to signals. Ray's own SIGTERM handler (an exit that
    skips levelbench's clean-up) is removed again once connected, so SIGTERM stops a run as Ctrl-C does.

    Raises:
        ClusterError: Ray is not installed, or no cluster answers at the address.
    """
    try:
        import ray
    except ImportError:
        raise ClusterError("--cluster ray needs Ray: pip install 'levelbench[ray]', then start a cluster "
                           "(docs/guide/cluster.md)") from None
    if ray.is_initialized():
        return ray
    shown = address or "auto (RAY_ADDRESS, or a head started here with `ray start --head`)"
    advice = (f"start one with `ray start --head --resources '{{\"{NODE_RESOURCE}\": 1}}'` or pass --address "
              "HOST:PORT (docs/guide/cluster.md)")
    target, source = _address_ray_would_use(address)
    if target and "://" not in target:
        problem = _unreachable(target)  # Ray itself would retry for minutes
        if problem:
            raise ClusterError(f"cannot reach a Ray cluster at {target}{source}: {problem}; {advice}")
    with _own_sigterm_handler():
        try:
            _heeding_signals(lambda: ray.init(address=address or "auto", log_to_driver=False, logging_level="ERROR",
                                              include_dashboard=False))
        except (ConnectionError, RuntimeError, ValueError) as e:
            raise ClusterError(f"cannot reach a Ray cluster at {shown}: {str(e).rstrip('.')}; {advice}") from None
    return ray


def _heeding_signals(call: Callable[[], Any]) -> Any:
    """``call()`` in a thread of its own while this (main) thread waits for it, so that Ctrl-C and
    SIGTERM are heard meanwhile. `ray.init` waits inside Ray's C++ core, where Python's signal
    handlers never run: at an address that accepts connections but is no Ray head, it would wait
    for minutes, deaf to SIGTERM. On a signal the thread is left behind (a daemon: it ends with the
    process)."""
    if threading.current_thread() is not threading.main_thread():
        return call()
    outcome: dict[str, Any] = {}

    def run() -> None:
        try:
            outcome["value"] = call()
        except BaseException as e:  # noqa: B902 - handed to the waiting thread as it is
            outcome["error"] = e

    worker = threading.Thread(target=run, name="levelbench-ray-connect", daemon=True)
    worker.start()
    while worker.is_alive():
        worker.join(0.1)
    if "error" in outcome:
        raise outcome["error"]
    return outcome.get("value")


def _address_ray_would_use(address: str | None) -> tuple[str, str]:
    """The HOST:PORT Ray connects to for ``address`` (None, "" and "auto" alike), and where it came from
    (for the message); ("", "") when Ray would look for a running head by itself.

    As `ray.init` does: the address given, else ``RAY_ADDRESS``, else the file the last ``ray start
    --head`` here wrote, ``ray/ray_current_cluster`` in ``RAY_TMPDIR``, ``TMPDIR`` or /tmp. A crashed
    session leaves that file behind, naming a head that is gone."""
    if address and address != "auto":
        return address, ""
    from_env = os.environ.get("RAY_ADDRESS", "")
    if from_env:
        return (from_env, " (RAY_ADDRESS)") if from_env != "auto" else ("", "")
    temp = os.environ.get("RAY_TMPDIR") or (os.environ.get("TMPDIR") if sys.platform.startswith("linux") else None)
    path = os.path.join(temp or "/tmp", "ray", "ray_current_cluster")
    try:
        with open(path) as f:
            named = f.read().strip()
    except OSError:
        return "", ""
    return (named, f" (named in {path}, left by the last `ray start` on this machine; that cluster may be "
                   "gone: remove the file, or pass --address)") if named else ("", "")


@contextlib.contextmanager
def _own_sigterm_handler() -> Iterator[None]:
    """Keep the SIGTERM handler in place across `ray.init`, which sets its own (``sys.exit(15)``: the run
    would end recorded as finished). A SIGTERM during the connection still stops it, as an interrupt."""
    try:
        before = signal.getsignal(signal.SIGTERM)
    except ValueError:
        before = None
    try:
        yield
    except SystemExit as e:
        if e.code == signal.SIGTERM:  # Ray's handler fired
            raise KeyboardInterrupt("SIGTERM") from None
        raise
    finally:
        if before is not None and threading.current_thread() is threading.main_thread():
            signal.signal(signal.SIGTERM, before)


def _unreachable(address: str, timeout: float = CONNECT_TIMEOUT) -> str:
    """Why nothing answers at HOST:PORT, or "" when something does."""
    host, _, port = address.rpartition(":")
    if not host or not port.isdigit():
        return f"expected HOST:PORT, got {address!r}"
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            return ""
    except OSError as e:
        return e.strerror or type(e).__name__


def discover_nodes(ray: Any, timeout: float = PROBE_TIMEOUT) -> list[Node]:
    """The live nodes that advertise ``levelbench_node``, each described by a small task run on it."""
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    alive = [n for n in ray.nodes() if n.get("Alive") and n.get("Resources", {}).get(NODE_RESOURCE, 0) >= 1]
    describe = ray.remote(_describe_node)
    refs = [describe.options(num_cpus=0, scheduling_strategy=NodeAffinitySchedulingStrategy(n["NodeID"], soft=False))
            .remote() for n in alive]
    try:
        facts = ray.get(refs, timeout=timeout)
    except ray.exceptions.GetTimeoutError:
        raise ClusterError(f"the cluster's nodes did not describe themselves within {timeout:g} s: is levelbench "
                           "installed in every node's Python environment?") from None
    nodes = []
    for info, fact in zip(alive, facts):
        resources = info.get("Resources", {})
        accelerator = next((k.split(":", 1)[1] for k in resources if k.startswith("accelerator_type:")), "")
        if not accelerator and resources.get("GPU"):
            accelerator = "GPU"
        nodes.append(Node(id=info["NodeID"], name=info.get("NodeName") or info.get("NodeManagerAddress", ""),
                          hostname=fact["hostname"], cpu=fact["cpu"], cpus=int(resources.get("CPU", 1) or 1),
                          accelerator=accelerator))
    return sorted(nodes, key=lambda n: (n.kind, n.name, n.id))


def _describe_node() -> dict[str, str]:
    """Runs on a node: what makes it the kind of machine it is."""
    import platform


    return {"hostname": platform.node(), "cpu": cpu_model()}


def _run_unit(job: dict[str, Any], timeout: float | None) -> dict[str, Any]:
    """Runs on a node: one unit, as `levelbench run` runs it locally, timed by the node's own clock."""
    import platform


    started = time.time()
    unit = Job(**job)
    problem = unit.source_problem()  # a relative path would be read from the Ray worker's directory
    if problem:
        result = WorkloadResult(unit.workload, unit.params, "failed", error=problem)
    else:
        result = run_job(unit, timeout=timeout)
    return {"result": result.to_dict(), "hostname": platform.node(), "started": started, "ended": time.time()}


def run_on_ray(ray: Any, jobs: Sequence[Job], groups: Mapping[str, Sequence[Node]], *, timeout: float | None = None,
               on_event: Callable[[UnitEvent], None] | None = None) -> Iterator[WorkloadResult]:
    """Run every job on every kind in ``groups``, one unit per node at a time; yield results as they finish.

    A unit whose node dies (or whose Ray worker is lost) is retried once on another node of its
    kind; a unit that fails by itself is a failed result, not retried. Each result's comparison
    carries ``environment["node"]``: the node, its kind, and when the unit started and ended there.
    Ctrl-C (or SIGTERM, SIGHUP) cancels the running units, yields them as ``interrupted``, then
    raises on, as ``KeyboardInterrupt(what came)``. If the cluster's head stops answering, the running
    units are yielded as failed and `HeadLost` is raised.
    """
    seen: list[str] = []  # Ray raises a bare KeyboardInterrupt from inside ray.wait: which signal it was
    with signals_named(seen):
        yield from _drive(ray, jobs, groups, timeout, on_event or (lambda event: None), seen)


def _drive(ray: Any, jobs: Sequence[Job], groups: Mapping[str, Sequence[Node]], timeout: float | None,
           emit: Callable[[UnitEvent], None], seen: list[str]) -> Iterator[WorkloadResult]:
    from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

    remote = ray.remote(_run_unit)
    pending = {kind: collections.deque(_Unit(job, kind) for job in jobs) for kind in groups}
    running: dict[Any, tuple[_Unit, Node, float]] = {}
    busy: set[str] = set()
    dead: set[str] = set()
    head = _Head(_head_address(ray))

    def submit(unit: _Unit, node: Node) -> None:
        strategy = NodeAffinitySchedulingStrategy(node.id, soft=False)
        ref = remote.options(num_cpus=node.cpus, resources={NODE_RESOURCE: 1}, scheduling_strategy=strategy,
                             max_retries=0).remote(unit.job.to_dict(), timeout)
        running[ref] = (unit, node, time.monotonic())
        busy.add(node.id)
        emit(UnitEvent("started", unit.job, unit.kind, node))

    def head_lost(problem: str) -> Iterator[WorkloadResult]:
        for unit, node, _ in running.values():
            yield _with_node(_failed(unit.job, f"the cluster's head at {head.address} stopped answering "
                                               f"({problem}) while it ran; its result is lost"), node, {})
        left = sum(map(len, pending.values()))
        raise HeadLost(f"the cluster's head at {head.address} stopped answering ({problem}): {len(running)} "
                       f"unit(s) running were lost" + (f", {left} not run" if left else "")
                       + "; restart the cluster (`ray start --head ...`) and run again")

    try:
        while any(pending.values()) or running:
            for kind, nodes in groups.items():
                for node in nodes:
                    if node.id in busy or node.id in dead:
                        continue
                    unit = _take(pending[kind], node)
                    if unit is not None:
                        submit(unit, node)
            if not running:  # units left, but no live node of their kind may take them
                for kind, queue in pending.items():
                    while queue:
                        unit = queue.popleft()
                        yield _failed(unit.job, f"no live node of kind {kind!r} left to run it"
                                      + (" (its node died under it)" if unit.attempts else ""))
                return
            ready, _ = ray.wait(list(running), num_returns=1, timeout=HEAD_CHECK_EVERY)
            problem = head.lost()
            if problem:
                yield from head_lost(problem)
            if not ready:
                yield from _cancel_hung(ray, running, busy, timeout)
                continue
            ref = ready[0]
            unit, node, _ = running.pop(ref)
            busy.discard(node.id)
            try:
                out = ray.get(ref)
            except ray.exceptions.RayTaskError as e:  # levelbench itself raised on the node
                yield _failed(unit.job, f"on node {node.label}: {_first_line(e)}")
                continue
            except ray.exceptions.RayError as e:  # the node, its raylet or the Ray worker went away
                problem = head.lost(now=True)
                if problem:  # the head went with it (asking it which nodes live would hang)
                    running[ref] = (unit, node, 0.0)
                    yield from head_lost(problem)
                if not _alive(ray, node):
                    dead.add(node.id)
                retry = _retry(unit, node, groups, dead)
                if retry is not None:
                    pending[unit.kind].appendleft(retry)
                    emit(UnitEvent("retried", unit.job, unit.kind, node))
                else:
                    yield _failed(unit.job, f"node {node.label} was lost while running it ({type(e).__name__})"
                                  + (" twice" if unit.attempts else "; no other live node of its kind"))
                continue
            result = _with_node(WorkloadResult.from_dict(out["result"]), node, out)
            emit(UnitEvent("finished", unit.job, unit.kind, node, result))
            yield result
    except KeyboardInterrupt as e:
        # The running units are not cancelled one by one (ray.cancel racing a task's completion can
        # abort Ray's bookkeeping in this process): the caller disconnects from the cluster, and Ray
        # stops the tasks of a driver that is gone; their levelbench workers exit with them.
        why = e.args[0] if e.args else (seen[0] if seen else "Ctrl-C")
        for unit, node, _ in running.values():
            yield _with_node(WorkloadResult(unit.job.workload, unit.job.params, "interrupted",
                                            error=f"interrupted ({why}); the unit was stopped on its node"),
                             node, {})
        raise KeyboardInterrupt(why) from None  # the caller stops too, even when no unit was running


class _Head:
    """Whether the cluster's head still answers, asked at most every `HEAD_CHECK_EVERY` seconds."""

    def __init__(self, address: str) -> None:
        self.address = address
        self.failures = 0
        self.checked = time.monotonic()

    def lost(self, now: bool = False) -> str:
        """Why the head is taken for gone ("" while it answers): `HEAD_LOST_AFTER` failed checks in a row."""
        if not self.address:
            return ""
        while True:
            if not now and time.monotonic() - self.checked < HEAD_CHECK_EVERY:
                return ""
            self.checked = time.monotonic()
            problem = _unreachable(self.address)
            self.failures = self.failures + 1 if problem else 0
            if not problem or self.failures >= HEAD_LOST_AFTER:
                return problem
            if not now:
                return ""
            time.sleep(HEAD_CHECK_EVERY / 2)


def _head_address(ray: Any) -> str:
    """HOST:PORT of the cluster's head (its GCS), as this driver is connected to it; "" if Ray does not say."""
    try:
        return str(ray.get_runtime_context().gcs_address or "")
    except Exception:  # an older or newer Ray without it: no health check, Ray's own timeout applies
        return ""


def _take(queue: collections.deque, node: Node) -> _Unit | None:
    for i, unit in enumerate(queue):
        if node.id not in unit.avoid:
            del queue[i]
            return unit
    return None


def _retry(unit: _Unit, node: Node, groups: Mapping[str, Sequence[Node]], dead: set[str]) -> _Unit | None:
    """The unit again, to run on another live node of its kind, if it has not been retried yet."""
    if unit.attempts >= 1:
        return None
    avoid = unit.avoid | {node.id}
    if not any(n.id not in avoid and n.id not in dead for n in groups[unit.kind]):
        return None
    return dataclasses.replace(unit, attempts=unit.attempts + 1, avoid=avoid)


def _alive(ray: Any, node: Node) -> bool:
    try:
        return any(n["NodeID"] == node.id and n.get("Alive") for n in ray.nodes())
    except Exception:  # the head is unreachable too: treat the node as gone
        return False


def _cancel_hung(ray: Any, running: dict, busy: set[str], timeout: float | None) -> Iterator[WorkloadResult]:
    if timeout is None:
        return
    now = time.monotonic()
    for ref, (unit, node, started) in list(running.items()):
        if now - started > timeout + HANG_MARGIN:
            ray.cancel(ref, force=True)
            del running[ref]
            busy.discard(node.id)
            yield _with_node(WorkloadResult(unit.job.workload, unit.job.params, "timeout",
                                            error=f"no result from node {node.label} after "
                                                  f"{now - started:.0f} s (--timeout {timeout:g} s); cancelled"),
                             node, {})


def _with_node(result: WorkloadResult, node: Node, out: Mapping[str, Any]) -> WorkloadResult:
    """``result`` with the node recorded in its comparison's environment (or, without one, its error)."""
    where = {**node.to_dict(), **{k: out[k] for k in ("started", "ended") if k in out}}
    if result.comparison is None:
        error = f"{result.error} [node {node.label}]" if result.error else f"[node {node.label}]"
        return dataclasses.replace(result, error=error)
    environment = {**result.comparison.environment, "node": where}
    return dataclasses.replace(result, comparison=dataclasses.replace(result.comparison, environment=environment))


def _failed(job: Job, error: str) -> WorkloadResult:
    return WorkloadResult(job.workload, job.params, "failed", error=error)


def _first_line(error: BaseException) -> str:
    cause = getattr(error, "cause", None) or error
    text = f"{type(cause).__name__}: {cause}"
    return text.strip().splitlines()[0] if text.strip() else type(cause).__name__
