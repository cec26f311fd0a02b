"""A run of workloads from plan to record: `run_workloads`, the library call behind ``levelbench run``.

Three steps, each usable alone (the CLI adds only rendering, progress bars and exit codes; a cluster
run supplies its own stream of results):

1. `plan_run`: the jobs to run, checked before anything runs or is recorded (a wrong workload,
   parameter or value raises `PlanError`); a user's workload file is read in a worker process
   under the timeout, and one that cannot be read is a failed result, not an error;
2. `open_run`: the run's row in the results database (`StoreError` if it cannot be used);
3. `record_run`: each result recorded as it comes, whatever stops the run: Ctrl-C (or a signal
   turned into one) keeps the finished results and records the rest as not run; an exception (a
   full disk, a lost cluster, a bug) ends the run as failed, never left looking "ok" or "running".

Example:
    >>> from levelbench.workloads.recorded import run_workloads
    >>> outcome = run_workloads(["matmul"], {"n": [256]}, budget=1, save=False)   # doctest: +SKIP
    >>> outcome.status, [r.status for r in outcome.results]                       # doctest: +SKIP
    ('ok', ['ok'])
"""

from __future__ import annotations

import dataclasses
import sys
import time
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from pathlib import Path
from typing import Any

from .._results.workload import WorkloadResult
from .._values.signals import interrupts_held
from .run import EXPAND, Job, PlanError, expand, located, run_jobs

DEFAULT_WORKLOADS = ("matmul", "gru")


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


def plan_run(specs: Sequence[str], overrides: Mapping[str, list[str] | None], *, full: bool = False,
             budget: float = 10.0, diagnose: bool = True, isolation: str = "framework",
             timeout: float = 1800.0) -> tuple[list[Job], list[WorkloadResult]]:
    """The jobs for ``specs`` (built-in names or ``FILE.py:NAME``) with parameter ``overrides`` (name ->
    values as text, e.g. ``{"n": ["1000", "2000"]}``: a sweep; None: given without a value), and a failed
    result for each user workload file that could not even be read. Raises `PlanError`, naming the fix."""
    from .._values.targets import TargetError, check_target
    from . import builtin

    given = {n: v for n, v in overrides.items() if v is not None}
    known = builtin()
    plans: dict[str, dict[str, Any]] = {}
    unloaded: list[WorkloadResult] = []
    for spec in specs:
        if spec in known:
            plans[spec] = expand(spec, given, full)
            continue
        if ":" not in spec:
            raise PlanError(f"unknown workload {spec!r}: expected one of {', '.join(sorted(known))}, "
                            "or FILE.py:NAME for your own")
        try:
            check_target(spec)
        except TargetError as e:
            raise PlanError(str(e)) from None
        plan = _expand_in_worker(spec, given, full, timeout)
        if isinstance(plan, WorkloadResult):
            unloaded.append(plan)
        else:
            plans[spec] = plan
    names = {n for p in plans.values() for n in p["params"]}
    unknown = sorted(set(overrides) - names)
    if unknown and not unloaded:
        listed = ", ".join(f"{s}: " + " ".join(f"--{n.replace('_', '-')}" for n in p["params"]) for s, p in plans.items())
        raise PlanError(f"no such option: {', '.join('--' + u.replace('_', '-') for u in unknown)} "
                        f"(the workloads' parameters are {listed}; see levelbench run --help)")
    for name in (n for n, v in overrides.items() if v is None and n in names):
        raise PlanError(f"--{name.replace('_', '-')} needs a value, e.g. --{name.replace('_', '-')} 100")
    for p in plans.values():
        if "error" in p:
            raise PlanError(p["error"])
    where = {spec: located(spec) for spec in plans}  # a node must load this file, whatever its directory
    jobs = [Job(spec, point, budget, diagnose, isolation, p["title"], p["baseline"], p["compare_options"],
                *where[spec]) for spec, p in plans.items() for point in p["points"]]
    return jobs, unloaded


def _expand_in_worker(spec: str, overrides: dict[str, list[str]], full: bool,
                      timeout: float) -> dict[str, Any] | WorkloadResult:
    """A user's workload file read in a worker process: its import may hang, exit or crash, and that is
    the workload failing (a result), not levelbench; a file that is no workload is a `PlanError`."""
    from .._measuring.workers import DeadlineExceeded, StepFailed, WorkerError, Workers
    from .._values.targets import split_target

    where = split_target(spec)[0]
    started = time.perf_counter()

    def failed(status: str, error: str) -> WorkloadResult:
        return WorkloadResult(spec, {}, status, error=error, duration=time.perf_counter() - started)

    try:
        with Workers(time.monotonic() + timeout) as workers:
            return workers.call(EXPAND, {"spec": spec, "overrides": overrides, "full": full})
    except DeadlineExceeded:
        return failed("timeout", f"importing {where} took longer than {timeout:g} s (--timeout); the worker was stopped")
    except StepFailed as e:
        text = str(e)
        if text.startswith("unknown workload") or "not a levelbench Workload" in text or " has no " in text:
            raise PlanError(text.splitlines()[0]) from None
        return failed("failed", text)
    except WorkerError as e:
        return failed("failed", f"importing {where} ended its worker: {e}")


def open_run(db: str | None = None, argv: Sequence[str] | None = None,
             cluster: dict[str, Any] | None = None) -> tuple[Any, int]:
    """The results database at ``db`` (default: ``$LEVELBENCH_DB`` or .levelbench/results.db) and a new
    run's id in it, with the environment (and the cluster's nodes) recorded. Raises `StoreError`."""
    from .._measuring.environment import collect
    from ..store import open_store

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
    from ..store._records import run_status

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
    from ..store import StoreError

    return isinstance(e, StoreError)


def _is_cluster_error(e: Exception) -> bool:
    from ..cluster import ClusterError

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
