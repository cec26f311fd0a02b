"""What the store gives back: `Run` (one recorded invocation) and its `StoredResult` s."""

from __future__ import annotations

import dataclasses
import datetime
import json
from collections.abc import Mapping, Sequence
from typing import Any

from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .._results.script_record import DOCUMENT_KEY as AUDIT_KEY
from .._results.workload import WorkloadResult

RUN_FORMAT = "levelbench.run"
RUN_FORMAT_VERSION = 1
RESULT_STATUSES = ("ok", "failed", "timeout", "skipped", "interrupted")
RUN_OK, RUN_PARTIAL, RUN_FAILED, RUN_INTERRUPTED = "ok", "partial", "failed", "interrupted"
RUN_STATUSES = (RUN_OK, RUN_INTERRUPTED, RUN_FAILED, RUN_PARTIAL)
"""How a run can end: every workload ok, some failed, all failed (or the run itself failed), stopped by a signal.
Every way of recording a run (`Store.recording`, `record_imported`, ``levelbench run``'s and a pytest
session's `levelbench._recording.Recording`) ends it in these words, through `stopped_by` when an exception
stopped it."""
READ_STATUSES = ("running", *RUN_STATUSES, "abandoned")
"""What a reader can see: also ``running``, and ``abandoned`` for a run whose process died (SIGKILL) before it ended."""


def stopped_by(e: BaseException) -> tuple[str, str]:
    """How a run that ``e`` stopped ends, as ``(status, error)``: a Ctrl-C (`KeyboardInterrupt`, whose first
    argument names the signal turned into one: ``"SIGTERM"``, ``"SIGHUP"``) ends it ``interrupted``, with
    ``"interrupted (Ctrl-C)"`` or ``"interrupted (SIGTERM)"``; any other exception ``failed``, with its type
    and message.

    Runs recorded before this was shared may hold ``interrupted`` with the error ``"interrupted"``, or an
    import stopped by Ctrl-C as ``failed``: they read as they were stored."""
    if isinstance(e, KeyboardInterrupt):
        return RUN_INTERRUPTED, f"interrupted ({e.args[0] if e.args else 'Ctrl-C'})"
    return RUN_FAILED, f"{type(e).__name__}: {e}"


def run_status(results: "Sequence[WorkloadResult]") -> str:
    """A finished run's status from its workloads': ``ok``, ``partial`` (some did not finish) or ``failed`` (none did).

    A run with no workload at all is ``failed``: it produced nothing.
    """
    finished = sum(r.status == "ok" for r in results)
    if results and finished == len(results):
        return RUN_OK
    return RUN_PARTIAL if finished else RUN_FAILED


def params_key(params: Mapping[str, Any]) -> str:
    """Canonical text of a parameter set: how results of two runs are matched."""
    return json.dumps(dict(params), sort_keys=True, default=str)


def as_comparison(result: Measurement | Comparison, title: str = "") -> Comparison:
    """``result`` as a comparison: a `Measurement` becomes a one-candidate one (so history, diff and
    reports treat every stored result alike); a `Comparison` is returned as it is."""
    if isinstance(result, Comparison):
        return result
    return Comparison(baseline=result.label, measurements={result.label: result}, rounds={result.label: result.samples},
                      environment=result.environment, title=title or result.label, target_reached=result.target_reached)


def workload_result(result: Measurement | Comparison, workload: str) -> WorkloadResult:
    """A measured result named ``workload`` as one result of a run (a `levelbench.measure`/`compare`
    saved, or a pytest session's test), its duration the time its measurements took."""
    c = as_comparison(result, workload)
    return WorkloadResult(workload, c.params, "ok", c, duration=sum(m.total_time for m in c.measurements.values()))


def result_doc(result: Measurement | Comparison, workload: str) -> dict[str, Any]:
    """The stored form (``WorkloadResult.to_dict()``) of a measured result named ``workload``."""
    return workload_result(result, workload).to_dict()


def params_text(params: Mapping[str, Any]) -> str:
    return ", ".join(f"{k}={v}" for k, v in params.items())


@dataclasses.dataclass(frozen=True)
class StoredResult(WorkloadResult):
    """A `WorkloadResult` as recorded: the same fields (``comparison`` keeps every candidate's raw
    samples) plus ``id``, its row id in the store."""

    id: int = 0
    audit: dict[str, Any] | None = None
    """For a ``doctor --run`` run: the timed interval and the audit's outline, as stored
    (`levelbench._results.script_record.stored_interval` reads it); None for any other result."""

    def to_dict(self) -> dict[str, Any]:
        doc = super().to_dict()
        if self.audit is not None and doc["comparison"] is not None:
            doc["comparison"][AUDIT_KEY] = self.audit
        return doc

    @property
    def node(self) -> dict[str, Any] | None:
        """The cluster node that produced it (`levelbench run --cluster`), else None: this machine."""
        node = self.comparison.environment.get("node") if self.comparison is not None else None
        return node if isinstance(node, dict) else None

    @property
    def key(self) -> tuple[str, str, str]:
        """What pairs it with a result of another run: workload, parameters, and kind of machine."""
        return self.workload, params_key(self.params), (self.node or {}).get("kind", "")

    @property
    def label(self) -> str:
        text = f"{self.workload} ({params_text(self.params)})" if self.params else self.workload
        return f"{text} on {self.node.get('kind', '?')}" if self.node else text


@dataclasses.dataclass(frozen=True)
class Run:
    """One recorded invocation of ``levelbench run`` (or a saved ``measure``/``compare``).

    ``results`` is filled by `Store.run`; `Store.runs` (listings) leaves it empty and gives
    ``workload_counts`` instead.
    """

    id: int
    kind: str
    started: float
    finished: float | None
    status: str
    argv: tuple[str, ...]
    git_commit: str | None
    label: str
    environment: dict[str, Any]
    workload_counts: dict[str, int]
    results: tuple[StoredResult, ...] = ()
    error: str = ""  # why the run failed or was abandoned
    pid: int | None = None  # the process that recorded it, and its host
    host: str | None = None

    @property
    def workloads(self) -> list[str]:
        return list(self.workload_counts)

    @property
    def machine(self) -> str:
        """Where it ran: this host and CPU, or the kinds of cluster node its units ran on."""
        cluster = self.environment.get("cluster")
        if isinstance(cluster, dict) and cluster.get("nodes"):
            kinds = sorted({str(n.get("kind", "?")) for n in cluster["nodes"]})
            return f"{len(cluster['nodes'])} node(s): {', '.join(kinds)}"
        host, cpu = self.environment.get("hostname"), self.environment.get("cpu")
        if host and cpu:
            return f"{host} ({cpu})"
        return host or cpu or "-"

    @property
    def started_text(self) -> str:
        return datetime.datetime.fromtimestamp(self.started).strftime("%Y-%m-%d %H:%M:%S")

    @property
    def versions(self) -> dict[str, str]:
        """Versions of levelbench and the frameworks it compares, as recorded."""
        packages = self.environment.get("packages") or {}
        return {p: packages[p] for p in ("levelbench", "jax", "torch", "numpy") if p in packages}

    @property
    def title(self) -> str:
        commit = f", {self.git_commit}" if self.git_commit else ""
        return f"run {self.id} ({self.started_text}{commit})"

    def to_dict(self) -> dict[str, Any]:
        return {
            "format": RUN_FORMAT,
            "version": RUN_FORMAT_VERSION,
            "id": self.id,
            "kind": self.kind,
            "started": self.started,
            "finished": self.finished,
            "status": self.status,
            "argv": list(self.argv),
            "git_commit": self.git_commit,
            "label": self.label,
            "environment": self.environment,
            "error": self.error,
            "pid": self.pid,
            "host": self.host,
            "results": [r.to_dict() for r in self.results],
        }

    def listing(self) -> dict[str, Any]:
        """The run as ``levelbench history --format json`` lists it: `to_dict` without the results, with
        how many results each workload has (``workloads``) and where it ran (``machine``)."""
        listed = {k: v for k, v in self.to_dict().items() if k != "results"}
        return listed | {"workloads": self.workload_counts, "machine": self.machine}
