"""A run of workloads from plan to record: `run_workloads`, the library call behind ``levelbench run``.

Three steps, each usable alone (the CLI adds only rendering, progress bars and exit codes; a cluster
run supplies its own stream of results):

1. `levelbench.workloads.plan.plan_run`: the jobs, checked before anything runs or is recorded;
2. `open_run`: the run's row in the results database (`StoreError` if it cannot be used);
3. `record_run`: each result recorded as it comes, whatever stops the run: Ctrl-C (or a signal
   turned into one) keeps the finished results and records the rest as not run; an exception (a
   full disk, a lost cluster, a bug) ends the run as failed, never left looking "ok" or "running".
   The lifecycle itself (begin, add, interrupt, crash, end) is `levelbench._recording.Recording`,
   which a pytest session (``--levelbench-save``) records through too.

On a Ray cluster, `choose_nodes` connects and chooses the nodes before step 2, and the jobs run on
them (`run_workloads(..., cluster=)`). It sits above the store (it records into it), the workloads
and the cluster (it runs them), as `_api` does for `measure` and `compare`.

Example:
    >>> import levelbench
    >>> outcome = levelbench.run_workloads(["matmul"], {"n": [256]}, budget=1, save=False)   # doctest: +SKIP
    >>> outcome.status, [r.status for r in outcome.results]                                  # doctest: +SKIP
    ('ok', ['ok'])
"""

from __future__ import annotations

import contextlib
import dataclasses
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from typing import Any

from ._recording import Recording
from ._recording import RunOutcome as RunOutcome  # where levelbench.RunOutcome has been found
from ._results.workload import WorkloadResult
from .workloads.plan import DEFAULT_WORKLOADS, plan_run
from .workloads.run import Job, run_jobs
from ._measuring.environment import collect
from .cluster import ClusterError, Node, UnitEvent, connect, discover_nodes, run_on_ray, select_nodes
from .store import open_store


@dataclasses.dataclass(frozen=True)
class ClusterNodes:
    """The nodes of a Ray cluster a run's units go to (`choose_nodes`), grouped by kind.

    ``ray`` is the connected ``ray`` module; ``address`` as given (None: ``RAY_ADDRESS`` or a head on
    this machine). ``facts`` is what the run records about them in its environment."""

    ray: Any
    groups: Mapping[str, list[Node]]
    address: str | None = None

    @property
    def nodes(self) -> list[Node]:
        return [n for group in self.groups.values() for n in group]

    @property
    def facts(self) -> dict[str, Any]:
        return {"address": self.address or "auto", "nodes": [n.to_dict() for n in self.nodes]}

    def run(self, jobs: Sequence[Job], timeout: float | None = None,
            on_event: Callable[[UnitEvent], None] | None = None) -> Iterator[WorkloadResult]:
        """Every job on every kind of node, one unit per node at a time, results as they finish; Ray is
        shut down at the end, in order (not from an exit hook racing the last results)."""
        try:
            yield from run_on_ray(self.ray, jobs, self.groups, timeout=timeout, on_event=on_event)
        finally:
            self.ray.shutdown()


def choose_nodes(address: str | None = None, on_kind: str | None = None, every_kind: bool = False) -> ClusterNodes:
    """Connect to the Ray cluster at ``address`` and choose the nodes a run will use: those of kind
    ``on_kind`` (part of the node's CPU/accelerator name), every kind with ``every_kind`` (the whole
    sweep on each, to compare machines), else the one kind the cluster has. Raises `ClusterError`
    (no cluster there, no node matching, several kinds and no choice) before anything is recorded.

    Example:
        >>> nodes = choose_nodes("10.0.0.5:6379", on_kind="EPYC")                     # doctest: +SKIP
        >>> levelbench.run_workloads(["gru"], {"seq": [25, 50, 100]}, cluster=nodes)  # doctest: +SKIP
    """
    ray = connect(address)
    try:
        return ClusterNodes(ray, select_nodes(discover_nodes(ray), on_kind, every_kind), address)
    except ClusterError:  # no node to use: the connection is not left open behind the error
        ray.shutdown()
        raise


def open_run(db: str | None = None, argv: Sequence[str] | None = None,
             cluster: dict[str, Any] | None = None) -> tuple[Any, int]:
    """The results database at ``db`` (default: ``$LEVELBENCH_DB`` or .levelbench/results.db) and a new
    run's id in it, with the environment (and the cluster's nodes) recorded. Raises `StoreError`."""

    environment = collect() | ({"cluster": cluster} if cluster else {})
    store = open_store(db)
    return store, store.begin_run(kind="run", argv=list(argv if argv is not None else sys.argv[1:]),
                                  environment=environment)


def record_run(produced: Iterator[WorkloadResult], jobs: Sequence[Job], store: Any = None, run_id: int | None = None,
               *, unloaded: Iterable[WorkloadResult] = (),
               on_result: Callable[[WorkloadResult], None] | None = None) -> RunOutcome:
    """Take the results ``produced`` (and the ``unloaded`` ones first), record each in ``store``'s run
    ``run_id`` as it comes (None: nothing recorded) and hand it to ``on_result``; then end the run:
    the `Recording` lifecycle, which a pytest session's run goes through too.

    Ctrl-C while a result is being recorded is held until it is, then told to ``produced`` (so that
    units still running on a cluster are kept as interrupted, not "not run"); the run ends
    ``interrupted`` and the KeyboardInterrupt does not propagate. Any other exception ends it
    ``failed`` (``crashed``). Jobs without a result are recorded as skipped ("not run")."""

    recording = Recording(store, run_id, jobs, on_result)
    try:
        for result in unloaded:
            recording.add(result)
        for result in produced:
            try:
                recording.add(result)
            except KeyboardInterrupt as interrupt:
                for late in _thrown(produced, interrupt):
                    with contextlib.suppress(KeyboardInterrupt):  # a second Ctrl-C does not lose them: they are recorded
                        recording.add(late)
                raise
    except KeyboardInterrupt as e:
        recording.interrupt(e)
    except Exception as e:  # a full disk, a lost cluster, a bug: the run is never left looking "ok" or "running"
        recording.crash(e, said=isinstance(e, ClusterError))  # a cluster's messages are whole sentences
    finally:
        outcome = recording.end()
    return outcome


def run_workloads(workloads: Sequence[str] = DEFAULT_WORKLOADS, params: Mapping[str, Any] | None = None, *,
                  full: bool = False, budget: float = 10.0, timeout: float = 1800.0, isolation: str = "framework",
                  in_process: bool = False, diagnose: bool = True, db: str | None = None, save: bool = True,
                  on_result: Callable[[WorkloadResult], None] | None = None,
                  progress: Callable[[Job, str, float], None] | None = None, cluster: ClusterNodes | None = None,
                  on_event: Callable[[UnitEvent], None] | None = None) -> RunOutcome:
    """Run ``workloads`` as ``levelbench run`` does, without printing: plan, open the run, run each job
    in worker processes (``in_process``: here; ``cluster``: on the nodes `choose_nodes` chose, as
    ``levelbench run --cluster ray``), record each result as it comes.

    ``params`` sets workload parameters by name; a list is a sweep (``{"n": [500, 1000]}``). Results
    go to ``db`` unless ``save`` is False. ``on_result`` sees each result as it is recorded;
    ``progress(job, stage, fraction)`` the stages of the running one (here), ``on_event`` each unit
    started, finished or lost on a node (on a cluster). Raises `PlanError` for a wrong workload or
    parameter and `StoreError` for a database that cannot be used, before anything runs; everything
    after (a failing workload, Ctrl-C, a full disk, a lost cluster) is in the outcome."""
    if cluster is not None and in_process:
        raise ValueError("in_process=True runs here; it cannot be combined with cluster=: pass one of them")
    overrides = {name: [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
                 for name, value in (params or {}).items()}
    jobs, unloaded = plan_run(workloads, overrides, full=full, budget=budget, diagnose=diagnose,
                              isolation=isolation, timeout=timeout)
    store, run_id = open_run(db, cluster=cluster.facts if cluster else None) if save else (None, None)
    if cluster is not None:
        produced = cluster.run(jobs, timeout, on_event)
    else:
        produced = run_jobs(jobs, in_process=in_process, timeout=timeout, progress=progress)
    return record_run(produced, jobs, store, run_id, unloaded=unloaded, on_result=on_result)


def _thrown(produced: Any, interrupt: KeyboardInterrupt) -> list[WorkloadResult]:
    """What ``produced`` still yields once ``interrupt`` is raised inside it: the units it stops."""
    late = []
    try:
        late.append(produced.throw(interrupt))
        late.extend(produced)
    except (StopIteration, KeyboardInterrupt):
        pass
    return late
