"""One run in the results database from its start to its end: `Recording`, the lifecycle that
``levelbench run`` (`levelbench.run_workloads`) and a pytest session (``--levelbench-save``) share.

The run's row is begun (`Recording.begin`); each result is recorded the moment it comes
(`Recording.add`: a Ctrl-C meanwhile waits until the result is committed, then stops what was
running); and the run is ended whatever stopped it (`Recording.end`):

- it ran to its end: ``ok`` when every result is, ``partial`` when some did not finish, ``failed``
  when none did (`levelbench.store.run_status`);
- Ctrl-C (`Recording.interrupt`): ``interrupted``, the finished results kept;
- an exception (`Recording.crash`: a full disk, a lost cluster, a bug): ``failed`` with the
  reason, never left looking ``ok`` or ``running``.

What was planned and has no result is recorded as skipped ("not run"). It imports no engine (no
workloads, no runner, no cluster), so the pytest plugin records through it without loading them.

Example:
    >>> from levelbench.store import open_store
    >>> recording = Recording.begin(open_store("results.db"), kind="script")     # doctest: +SKIP
    >>> recording.add(WorkloadResult("matmul", {"n": 256}, "ok"))                 # doctest: +SKIP
    >>> recording.end().status                                                    # doctest: +SKIP
    'ok'
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import Any, Protocol

from ._results.script_audit import ScriptAudit
from ._results.script_record import RUN_KIND, interval_results, run_status as audit_status
from ._results.workload import WorkloadResult
from ._values.signals import interrupts_held
from .store import RUN_INTERRUPTED, RUN_OK, StoreError, run_status, stopped_by


class Planned(Protocol):
    """What a run meant to produce a result for (a `levelbench.workloads.run.Job`)."""

    workload: str
    params: dict[str, Any]


@dataclasses.dataclass
class RunOutcome:
    """How a run of workloads ended.

    ``status``: ``ok``, ``partial``/``failed`` (some/every workload did not finish, or an exception
    ended the run) or ``interrupted``; ``error`` says why when not ok. ``results`` in the order they
    came; ``not_run`` the jobs no result answers. ``crashed``: an exception ended the run
    (``store_error``: the results database's); ``unrecorded``: why the run's end could not be
    recorded (empty when it was, or when nothing was recorded). ``run_id``/``store_path``: where it
    was recorded (None: not saved).
    """

    status: str
    error: str
    results: list[WorkloadResult]
    not_run: list[Any]
    run_id: int | None = None
    store_path: Path | None = None
    crashed: bool = False
    store_error: bool = False
    unrecorded: str = ""


class Recording:
    """A run being recorded in ``store`` as ``run_id`` (``store`` None: kept here, recorded nowhere).

    ``planned``: what the run meant to produce (jobs; those without a result are recorded as not
    run at the end). ``on_result`` sees each result once it is recorded. Results are kept in
    ``results``; `end` returns the `RunOutcome` (and only the first call ends the run).
    """

    def __init__(self, store: Any = None, run_id: int | None = None, planned: Sequence[Planned] = (),
                 on_result: Callable[[WorkloadResult], None] | None = None) -> None:
        self.store = store
        self.run_id = run_id
        self.planned = list(planned)
        self.results: list[WorkloadResult] = []
        self.status, self.error = RUN_OK, ""
        self.crashed = self.store_error = False
        self._on_result = on_result
        self._stopped = False  # interrupted or crashed: the status is settled
        self._outcome: RunOutcome | None = None

    @classmethod
    def begin(cls, store: Any, *, kind: str = "run", argv: Sequence[str] | None = None,
              environment: Mapping[str, Any] | None = None, label: str = "", planned: Sequence[Planned] = (),
              on_result: Callable[[WorkloadResult], None] | None = None) -> "Recording":
        """A new run of ``kind`` begun in ``store`` (``environment`` None: collected now; the git
        commit is detected). Raises `StoreError` when the database cannot take it."""
        run_id = store.begin_run(kind=kind, argv=argv, environment=environment, label=label)
        return cls(store, run_id, planned, on_result)

    def add(self, result: WorkloadResult) -> None:
        """Keep ``result``, record it in the run (committed at once) and show it to ``on_result``.

        A Ctrl-C (or SIGTERM/SIGHUP) that comes meanwhile waits until then and is raised after, so
        a finished result is never lost to it. A result ``interrupted`` makes the run so."""
        with interrupts_held() as interrupt:
            self.results.append(result)
            if self.store is not None:
                self.store.add_result(self.run_id, result)
            if result.status == "interrupted" and not self._stopped:
                self.status, self.error = RUN_INTERRUPTED, result.error
            if self._on_result is not None:
                self._on_result(result)
        if interrupt:
            raise interrupt[0]

    def interrupt(self, e: KeyboardInterrupt | None = None) -> None:
        """Ctrl-C (``e``, whose first argument names another signal when one was turned into it)
        stopped the run: it ends ``interrupted`` (`stopped_by`), what finished kept."""
        self.status, self.error = stopped_by(e if e is not None else KeyboardInterrupt())
        self._stopped = True

    def crash(self, e: Exception, *, said: bool = False) -> None:
        """``e`` stopped the run: it ends ``failed`` (`stopped_by`) with ``e``'s message as the reason.
        ``said``: that message is a whole sentence for the user already (a store's always is)."""
        self.store_error = isinstance(e, StoreError)
        self.status, self.error = stopped_by(e)
        if said or self.store_error:
            self.error = str(e)
        self.crashed = self._stopped = True

    def end(self, status: str | None = None, error: str = "") -> RunOutcome:
        """End the run row with its status (from the results when nothing stopped it) and record
        what was planned and never ran as skipped. Never raises: a database that cannot take the
        end is said in the outcome's ``unrecorded`` (history then shows the run as abandoned).

        ``status`` (with ``error``, why): the run's own ending where its results cannot tell it
        (a ``doctor --run`` script that raised after its timed intervals); a Ctrl-C or an exception
        that stopped the recording still wins."""
        if self._outcome is not None:
            return self._outcome
        if status is not None and not self._stopped:
            self.status, self.error = status, error
        elif not self._stopped and self.status != RUN_INTERRUPTED:
            self.status = run_status(self.results)
            self.error = "" if self.status == RUN_OK else _failures(self.results)
        not_run = _without_result(self.planned, self.results)
        unrecorded = _finish(self.store, self.run_id, self.status, self.error, not_run) if self.store is not None else ""
        self._outcome = RunOutcome(self.status, self.error, self.results, not_run, self.run_id,
                                   getattr(self.store, "path", None), self.crashed, self.store_error, unrecorded)
        return self._outcome


def label(r: Any) -> str:
    """A result's or job's workload with its parameters, e.g. ``gru (seq=100)``."""
    params = ", ".join(f"{k}={v}" for k, v in r.params.items())
    return f"{r.workload} ({params})" if params else r.workload


def _without_result(planned: Sequence[Planned], results: list[WorkloadResult]) -> list[Any]:
    """The jobs no result answers. On a cluster results come in any order, so they are matched by
    workload and parameters, each result answering one job (the same job may be asked twice)."""
    left = list(results)
    missing = []
    for job in planned:
        match = next((r for r in left if r.workload == job.workload and r.params == job.params), None)
        if match is None:
            missing.append(job)
        else:
            left.remove(match)
    return missing


def _failures(results: list[WorkloadResult]) -> str:
    bad = [r for r in results if r.status != "ok"]
    return f"{len(bad)} of {len(results)} workload(s) did not finish: " + "; ".join(
        f"{label(r)}: {r.status}" for r in bad[:5]) + ("; ..." if len(bad) > 5 else "")


def _finish(store: Any, run_id: int | None, status: str, error: str, not_run: list[Any]) -> str:
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


def record_audit(store: Any, audit: ScriptAudit, *, argv: Sequence[str] | None = None,
                 environment: Mapping[str, Any] | None = None) -> RunOutcome:
    """Record a ``doctor --run`` audit in ``store`` as a run of kind ``doctor-run``: one result per
    timed interval (`levelbench._results.script_record`), the run ``ok`` when the script finished,
    ``partial``/``failed``/``interrupted`` when it did not (the reason in ``error``).

    Raises `StoreError` when the run cannot even be begun; after that, like every run, it never raises
    (a database that fails meanwhile ends it ``failed``, or is said in ``unrecorded``).

    Example:
        >>> from levelbench import audit_script, record_audit
        >>> from levelbench.store import open_store
        >>> outcome = record_audit(open_store("results.db"), audit_script("bench.py"))   # doctest: +SKIP
        >>> outcome.run_id, outcome.status                                               # doctest: +SKIP
        (7, 'ok')
    """
    recording = Recording.begin(store, kind=RUN_KIND, argv=argv, environment=environment,
                                label=Path(audit.script).name)
    try:
        for result in interval_results(audit, dict(environment or {})):
            recording.add(result)
    except KeyboardInterrupt as e:
        recording.interrupt(e)
    except Exception as e:
        recording.crash(e)
    return recording.end(*audit_status(audit))
