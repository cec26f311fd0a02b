"""A run of workloads from plan to record: `run_workloads`, the library call behind ``levelbench run``.

Three steps, each usable alone (the CLI adds only rendering, progress bars and exit codes; a cluster
run supplies its own stream of results):

1. `levelbench.workloads.plan.plan_run`: the jobs, checked before anything runs or is recorded;
2. `open_run`: the run's row in the results database (`StoreError` if it cannot be used);
3. `record_run`: each result recorded as it comes, whatever stops the run: Ctrl-C (or a signal
   turned into one) keeps the finished results and records the rest as not run; an exception (a
   full disk, a lost cluster, a bug) ends the run as failed, never left looking "ok" or "running".

It sits above the store (it records into it) and the workloads (it runs them), as `_api` does for
`measure` and `compare`.

Example:
    >>> import levelbench
    >>> outcome = levelbench.run_workloads(["matmul"], {"n": [256]}, budget=1, save=False)   # doctest: +SKIP
    >>> outcome.status, [r.status for r in outcome.results]                                  # doctest: +SKIP
    ('ok', ['ok'])
"""

from __future__ import annotations

import dataclasses
import sys
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from ._results.workload import WorkloadResult
from ._values.signals import interrupts_held
from .workloads.plan import DEFAULT_WORKLOADS, plan_run
from .workloads.run import Job, run_jobs
from ._measuring.environment import collect
from .cluster import ClusterError
from .store import StoreError, open_store, run_status


@dataclasses.dataclass
class RunOutcome:
    """How a run of workloads ended.

    ``status``: ``ok``, ``failed`` (some workload did not finish, or an exception ended the run) or
    ``interrupted``; ``error`` says why when not ok. ``results`` in the order they came; ``not_run``
    the jobs no result answers. ``crashed``: an exception ended the run (``store_error``: the
    results database's); ``unrecorded``: why the run's end could not be recorded (empty when it was,
    or when nothing was recorded). ``run_id``/``store_path``: where it was recorded (None: not saved).
    """

    status: str
    error: str
    results: list[WorkloadResult]
    not_run: list[Job]
    run_id: int | None = None
    store_path: Path | None = None
    crashed: bool = False
    store_error: bool = False
    unrecorded: str = ""


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
    ``run_id`` as it comes (None: nothing recorded) and hand it to ``on_result``; then end the run.

    Ctrl-C while a result is being recorded is held until it is, then told to ``produced`` (so that
    units still running on a cluster are kept as interrupted, not "not run"); the run ends
    ``interrupted`` and the KeyboardInterrupt does not propagate. Any other exception ends it
    ``failed`` (``crashed``). Jobs without a result are recorded as skipped ("not run")."""

    results: list[WorkloadResult] = []
    status, error, crashed, store_error = "ok", "", False, False
    tell = on_result or (lambda result: None)

    def keep(result: WorkloadResult) -> None:
        nonlocal status, error
        results.append(result)
        if store is not None:
            store.add_result(run_id, result)
        if result.status == "interrupted":
            status, error = "interrupted", result.error
        tell(result)

    try:
        for result in unloaded:
            keep(result)
        for result in produced:
            with interrupts_held() as interrupt:
                keep(result)
            if interrupt:
                for late in _thrown(produced, interrupt[0]):
                    with interrupts_held():
                        keep(late)
                raise interrupt[0]
        if status != "interrupted":
            status = run_status(results)
            error = "" if status == "ok" else _failures(results)
    except KeyboardInterrupt as e:
        status, error = "interrupted", f"interrupted ({e.args[0] if e.args else 'Ctrl-C'})"
    except Exception as e:  # a full disk, a lost cluster, a bug: the run is never left looking "ok" or "running"
        store_error = _is_store_error(e)
        said = store_error or _is_cluster_error(e)  # their messages are whole sentences
        status, error, crashed = "failed", str(e) if said else f"{type(e).__name__}: {e}", True
    finally:
        not_run = _without_result(jobs, results)
        unrecorded = _finish(store, run_id, status, error, not_run) if store is not None else ""
    return RunOutcome(status, error, results, not_run, run_id, getattr(store, "path", None), crashed,
                      store_error, unrecorded)


def run_workloads(workloads: Sequence[str] = DEFAULT_WORKLOADS, params: Mapping[str, Any] | None = None, *,
                  full: bool = False, budget: float = 10.0, timeout: float = 1800.0, isolation: str = "framework",
                  in_process: bool = False, diagnose: bool = True, db: str | None = None, save: bool = True,
                  on_result: Callable[[WorkloadResult], None] | None = None,
                  progress: Callable[[Job, str, float], None] | None = None) -> RunOutcome:
    """Run ``workloads`` as ``levelbench run`` does, without printing: plan, open the run, run each job
    in worker processes (``in_process``: here), record each result as it comes.

    ``params`` sets workload parameters by name; a list is a sweep (``{"n": [500, 1000]}``). Results
    go to ``db`` unless ``save`` is False. ``on_result`` sees each result as it is recorded;
    ``progress(job, stage, fraction)`` the stages of the running one. Raises `PlanError` for a
    wrong workload or parameter and `StoreError` for a database that cannot be used, before anything
    runs; everything after (a failing workload, Ctrl-C, a full disk) is in the outcome."""
    overrides = {name: [str(v) for v in (value if isinstance(value, (list, tuple)) else [value])]
                 for name, value in (params or {}).items()}
    jobs, unloaded = plan_run(workloads, overrides, full=full, budget=budget, diagnose=diagnose,
                              isolation=isolation, timeout=timeout)
    store, run_id = open_run(db) if save else (None, None)
    produced = run_jobs(jobs, in_process=in_process, timeout=timeout, progress=progress)
    return record_run(produced, jobs, store, run_id, unloaded=unloaded, on_result=on_result)


def _without_result(jobs: Sequence[Job], results: list[WorkloadResult]) -> list[Job]:
    """The jobs no result answers. On a cluster results come in any order, so they are matched by
    workload and parameters, each result answering one job (the same job may be asked twice)."""
    left = list(results)
    missing = []
    for job in jobs:
        match = next((r for r in left if r.workload == job.workload and r.params == job.params), None)
        if match is None:
            missing.append(job)
        else:
            left.remove(match)
    return missing


def _thrown(produced: Any, interrupt: KeyboardInterrupt) -> list[WorkloadResult]:
    """What ``produced`` still yields once ``interrupt`` is raised inside it: the units it stops."""
    late = []
    try:
        late.append(produced.throw(interrupt))
        late.extend(produced)
    except (StopIteration, KeyboardInterrupt):
        pass
    return late


def _is_store_error(e: Exception) -> bool:
    return isinstance(e, StoreError)


def _is_cluster_error(e: Exception) -> bool:
    return isinstance(e, ClusterError)


def _failures(results: list[WorkloadResult]) -> str:
    bad = [r for r in results if r.status != "ok"]
    return f"{len(bad)} of {len(results)} workload(s) did not finish: " + "; ".join(
        f"{label(r)}: {r.status}" for r in bad[:5]) + ("; ..." if len(bad) > 5 else "")


def label(r: Any) -> str:
    """A result's or job's workload with its parameters, e.g. ``gru (seq=100)``."""
    params = ", ".join(f"{k}={v}" for k, v in r.params.items())
    return f"{r.workload} ({params})" if params else r.workload


def _finish(store: Any, run_id: int | None, status: str, error: str, not_run: list[Job]) -> str:
    """End the run row whatever happened; the workloads that never started are recorded as not run.
    Returns why the end could not be recorded ("" when it was)."""
    try:
        for j in not_run:
            store.add_result(run_id, WorkloadResult(j.workload, j.params, "skipped",
                                                    error=f"not run: the run ended ({status}) before it"))
        store.end_run(run_id, status, error)
    except Exception as e:
        return str(e)
    return ""
