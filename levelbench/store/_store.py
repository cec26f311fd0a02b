"""`Store`: every run recorded in an embedded SQLite database, safe under Ctrl-C and concurrent writers.

Each write is one short ``BEGIN IMMEDIATE`` transaction, committed before the call returns, so a
run stopped with Ctrl-C (or killed) keeps every result it recorded. The database runs in WAL
mode with a generous busy timeout: several processes can write at once and readers never block.

    >>> from levelbench.store import open_store
    >>> store = open_store("results.db")                     # doctest: +SKIP
    >>> with store.recording(kind="run", argv=["gru"]) as run_id:   # doctest: +SKIP
    ...     store.add_result(run_id, result)                 # committed now
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import Any

from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .._results.script_record import DOCUMENT_KEY as AUDIT_KEY
from . import _schema
from ._open import StoreError, _error, connect, default_path, transaction
from ._records import RESULT_STATUSES, RUN_OK, RUN_STATUSES, Run, StoredResult, params_key, result_doc, stopped_by
from .._values import settings
from .._measuring.environment import collect

DEFAULT_PATH = settings.DEFAULT_DB
_MAX_ID = 2**63 - 1  # SQLite's largest integer


def open_store(path: str | os.PathLike[str] | None = None, *, create: bool = True,
               option: str = "--db") -> "Store":
    """Open (and create or upgrade) the results database at ``path``.

    ``path`` defaults to `default_path`. With ``create=False`` a missing database is an error
    (for commands that only read). A file that is not a levelbench database raises `StoreError`
    and is left untouched. ``option`` is how the user names this database, for the fix an error
    suggests: ``"--db"`` (every command), ``"-o"`` (merge's output) or ``"LEVELBENCH_DB"`` (the
    pytest plugin, which has no option for it).
    """
    p = Path(path) if path is not None else default_path()
    conn, read_only = connect(p, create, option)
    return Store(p, conn, read_only=read_only, option=option)


def detect_git_commit(cwd: str | os.PathLike[str] | None = None) -> str | None:
    """The checked-out commit (12 hex digits, ``+dirty`` with uncommitted changes), or None outside git."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short=12", "HEAD"], cwd=cwd, capture_output=True,
                              text=True, timeout=5)
        if head.returncode != 0:
            return None
        dirty = subprocess.run(["git", "diff-index", "--quiet", "HEAD", "--"], cwd=cwd, capture_output=True,
                               timeout=5)
    except (OSError, subprocess.TimeoutExpired):
        return None
    return head.stdout.strip() + ("+dirty" if dirty.returncode == 1 else "")


class Store:
    """A results database: write runs as they happen, read them back for history, diff and reports.

    Use `open_store` to get one. Run references accepted by `resolve` (and every reading method):
    an integer id, ``"latest"``, or ``"latest~N"`` (the N-th run before the latest). Runs are in the
    order they started, not of their ids: a run merged from another store (``levelbench merge``) or
    imported keeps its start time and takes its place among the others, and ``latest`` is the run that
    started last.
    """

    def __init__(self, path: Path, connection: sqlite3.Connection, read_only: bool = False,
                 option: str = "--db") -> None:
        self.path = path
        self._conn = connection
        self.read_only = read_only
        self.option = option  # how the user named it: for the fix an error suggests

    # -- lifetime ------------------------------------------------------------------------------
    def close(self) -> None:
        self._conn.close()

    def __enter__(self) -> "Store":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Store({str(self.path)!r})"

    @contextlib.contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """One short write transaction; any interruption (Ctrl-C included) rolls it back whole."""
        if self.read_only:
            raise StoreError(f"the results database {self.path} is on read-only media: it can be read "
                             "(history, diff, report, export), not written; "
                             f"{_choose_another(self.option, 'a writable path')} to record")
        try:
            with transaction(self._conn) as conn:
                yield conn
        except sqlite3.Error as e:
            raise _error(self.path, e, self.option) from None

    @contextlib.contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        try:
            yield self._conn
        except sqlite3.Error as e:
            raise _error(self.path, e, self.option) from None

    # -- writing -------------------------------------------------------------------------------
    def begin_run(self, kind: str = "run", argv: list[str] | tuple[str, ...] | None = None,
                  environment: Mapping[str, Any] | None = None, git_commit: str | None = None,
                  label: str = "", started: float | None = None) -> int:
        """Record the start of a run; returns its id.

        ``environment`` defaults to `levelbench.environment.collect` now. ``git_commit`` None
        means: detect the working directory's commit (``""`` records none). ``started`` (unix
        time) defaults to now; an imported run keeps the time it ran elsewhere.
        """
        if environment is None:
            environment = collect()
        commit = detect_git_commit() if git_commit is None else (git_commit or None)
        with self._write() as conn:
            cur = conn.execute(
                "INSERT INTO runs (kind, started, status, argv, git_commit, environment, label, pid, host) "
                "VALUES (?, ?, 'running', ?, ?, ?, ?, ?, ?)",
                (kind, time.time() if started is None else float(started), json.dumps(list(argv if argv is not None else sys.argv[1:])), commit,
                 json.dumps(dict(environment), default=str), label, os.getpid(), socket.gethostname()),
            )
            return int(cur.lastrowid)

    def add_result(self, run_id: int, result: Any) -> int:
        """Record one workload result (a ``WorkloadResult``, or its ``to_dict()`` form), committed at once."""
        doc = _result_doc(result)
        with self._write() as conn:
            row = conn.execute("SELECT status FROM runs WHERE id = ?", (run_id,)).fetchone()
            if row is None:
                raise StoreError(f"no run {run_id} in {self.path}: call begin_run() first and pass the id it returns")
            if row[0] != "running":
                raise StoreError(f"run {run_id} has ended (status {row[0]}): results can only be added "
                                 "between begin_run() and end_run()")
            comparison = doc["comparison"]
            cur = conn.execute(
                "INSERT INTO results (run_id, workload, params, status, error, duration, comparison, recorded) "
                "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                (run_id, doc["workload"], params_key(doc["params"]), doc["status"], doc["error"], doc["duration"],
                 json.dumps(comparison, default=str) if comparison is not None else None, time.time()),
            )
            result_id = int(cur.lastrowid)
            if comparison is not None:
                _schema.index_comparison(conn, result_id, comparison)
            return result_id

    def end_run(self, run_id: int, status: str = "ok", error: str = "") -> None:
        """Mark a run finished: ``"ok"``, ``"partial"``, ``"failed"`` or ``"interrupted"``, and why
        (``error``) when it did not end ``ok``."""
        if status not in RUN_STATUSES:
            raise ValueError(f"run status must be one of {', '.join(RUN_STATUSES)}, got {status!r}")
        with self._write() as conn:
            cur = conn.execute("UPDATE runs SET status = ?, finished = ?, error = ? WHERE id = ?",
                               (status, time.time(), str(error), run_id))
            if cur.rowcount == 0:
                raise StoreError(f"no run {run_id} in {self.path}: end_run() needs the id begin_run() returned")

    @contextlib.contextmanager
    def recording(self, kind: str = "run", argv: list[str] | tuple[str, ...] | None = None,
                  environment: Mapping[str, Any] | None = None, git_commit: str | None = None,
                  label: str = "") -> Iterator[int]:
        """``begin_run`` ... ``end_run`` around a block: Ctrl-C marks the run ``interrupted``, an
        exception ``failed`` (`stopped_by`), and the results added so far stay."""
        run_id = self.begin_run(kind, argv, environment, git_commit, label)
        status, error = RUN_OK, ""
        try:
            yield run_id
        except BaseException as e:
            status, error = stopped_by(e)
            raise
        finally:
            self.end_run(run_id, status, error)

    def save_comparison(self, comparison: Comparison, label: str = "") -> int:
        """Record a `Comparison` as a run of its own (``compare(..., save=True)``); returns the run id."""
        if not isinstance(comparison, Comparison):
            raise TypeError(f"expected a Comparison, got {type(comparison).__name__}")
        doc = result_doc(comparison, label or comparison.title or "compare")
        return self._save_one("compare", doc, comparison.environment, label)

    def save_measurement(self, measurement: Measurement, label: str = "") -> int:
        """Record a `Measurement` as a run of its own (``measure(..., save=True)``); returns the run id.

        It is stored as a one-candidate comparison, so history, diff and reports treat it like any run.
        """
        if not isinstance(measurement, Measurement):
            raise TypeError(f"expected a Measurement, got {type(measurement).__name__}")
        doc = result_doc(measurement, label or measurement.label)
        return self._save_one("measure", doc, measurement.environment, label)

    def _save_one(self, kind: str, doc: dict[str, Any], environment: Mapping[str, Any], label: str) -> int:
        with self.recording(kind=kind, argv=sys.argv[1:], environment=environment or None, label=label) as run_id:
            self.add_result(run_id, doc)
        return run_id

    # -- reading -------------------------------------------------------------------------------
    def resolve(self, ref: int | str) -> int:
        """The id of a run given as ``3``, ``"3"``, ``"latest"`` (the run that started last) or ``"latest~1"``
        (the one that started before it)."""
        text = str(ref).strip()
        with self._read() as conn:
            if text.isdigit() and int(text) > _MAX_ID or text.startswith("latest~") and text[7:].isdigit() \
                    and int(text[7:]) > _MAX_ID:
                raise StoreError(f"no run {text!r} in {self.path}: {self._known_runs()}")
            if text.isdigit():
                if conn.execute("SELECT 1 FROM runs WHERE id = ?", (int(text),)).fetchone() is None:
                    raise StoreError(f"no run {text} in {self.path}: {self._known_runs()}")
                return int(text)
            back = 0
            if text == "latest":
                pass
            elif text.startswith("latest~") and text[7:].isdigit():
                back = int(text[7:])
            else:
                raise StoreError(f"expected a run id (e.g. 3), 'latest' or 'latest~N', got {text!r}")
            row = conn.execute("SELECT id FROM runs ORDER BY started DESC, id DESC LIMIT 1 OFFSET ?",
                               (back,)).fetchone()
        if row is None:
            raise StoreError(f"no run {text!r} in {self.path}: {self._known_runs()}")
        return int(row[0])

    def _known_runs(self) -> str:
        count, first, last = self._conn.execute("SELECT COUNT(*), MIN(id), MAX(id) FROM runs").fetchone()
        if not count:
            return "it has no runs yet (record one with `levelbench run`)"
        back = f"latest~0..latest~{count - 1}" if count > 1 else "latest"
        return f"it has {count} run(s), ids {first}..{last} or {back} (`levelbench history` lists them)"

    def runs(self, workload: str | None = None, limit: int | None = None) -> list[Run]:
        """Recorded runs, oldest first by start time (the newest ``limit``), without their results."""
        where, args = ("WHERE id IN (SELECT run_id FROM results WHERE workload = ?)", [workload]) if workload else ("", [])
        sql = f"SELECT * FROM runs {where} ORDER BY started DESC, id DESC"
        if limit is not None:
            sql += " LIMIT ?"
            args.append(limit)
        with self._read() as conn:
            rows = _rows(conn, sql, args)
            counts = self._workload_counts([r["id"] for r in rows])
        return [_run(r, counts.get(r["id"], {})) for r in reversed(rows)]

    def _workload_counts(self, ids: list[int]) -> dict[int, dict[str, int]]:
        if not ids:
            return {}
        marks = ",".join("?" * len(ids))
        out: dict[int, dict[str, int]] = {}
        for run_id, workload, n in self._conn.execute(
                f"SELECT run_id, workload, COUNT(*) FROM results WHERE run_id IN ({marks}) "
                "GROUP BY run_id, workload ORDER BY MIN(id)", ids):
            out.setdefault(run_id, {})[workload] = n
        return out

    def run(self, ref: int | str) -> Run:
        """One run with all its results (comparisons with raw samples), by id or ``latest~N``."""
        run_id = self.resolve(ref)
        with self._read() as conn:
            row = _rows(conn, "SELECT * FROM runs WHERE id = ?", (run_id,))[0]
            rows = _rows(conn, "SELECT * FROM results WHERE run_id = ? ORDER BY id", (run_id,))
        results = tuple(self._result(r) for r in rows)
        counts: dict[str, int] = {}
        for r in results:
            counts[r.workload] = counts.get(r.workload, 0) + 1
        return _run(row, counts, results)

    def select_runs(self, refs: Iterable[int | str] = ()) -> list[Run]:
        """The runs ``refs`` name (ids, ``latest``, ``latest~N``; none: the latest), with their results, each once
        in the order first named: ``["latest", 7]`` is one run when 7 is the latest. Every reference is checked
        (`StoreError` naming the runs there are) before any run is read."""
        ids = list(dict.fromkeys(self.resolve(r) for r in (list(refs) or ["latest"])))
        return [self.run(i) for i in ids]

    def _result(self, row: sqlite3.Row) -> StoredResult:
        comparison, audit = None, None
        if row["comparison"] is not None:
            try:
                doc = json.loads(row["comparison"])
                comparison = Comparison.from_dict(doc)
            except (ValueError, KeyError, TypeError) as e:
                raise StoreError(f"result {row['id']} ({row['workload']}) in {self.path} cannot be read: {e}") from None
            audit = doc.get(AUDIT_KEY)  # a `doctor --run` interval, kept in the comparison's document
        return StoredResult(row["workload"], json.loads(row["params"]), row["status"], comparison, row["error"],
                            row["duration"], row["id"], audit if isinstance(audit, dict) else None)

    def schema_version(self) -> int:
        with self._read() as conn:
            return int(conn.execute("PRAGMA user_version").fetchone()[0])


def _rows(conn: sqlite3.Connection, sql: str, args: Any = ()) -> list[sqlite3.Row]:
    cur = conn.cursor()
    cur.row_factory = sqlite3.Row
    return cur.execute(sql, args).fetchall()


def _run(row: sqlite3.Row, counts: dict[str, int], results: tuple[StoredResult, ...] = ()) -> Run:
    columns = row.keys()  # a database of an older schema read on read-only media lacks the newer columns
    pid, host = (row["pid"], row["host"]) if "pid" in columns else (None, None)
    status, error = row["status"], row["error"] if "error" in columns else ""
    if status == "running" and _gone(pid, host):
        status = "abandoned"
        error = error or f"the process that recorded it (pid {pid} on {host}) ended without finishing it"
    return Run(
        id=row["id"], kind=row["kind"], started=row["started"], finished=row["finished"], status=status,
        argv=tuple(json.loads(row["argv"])), git_commit=row["git_commit"], label=row["label"],
        environment=json.loads(row["environment"]), workload_counts=counts, results=results,
        error=error, pid=pid, host=host,
    )


def _gone(pid: int | None, host: str | None) -> bool:
    """True when ``pid`` on ``host`` (this machine) no longer exists. A run recorded on another
    machine, or before pids were recorded, is taken as still running: nothing here can tell."""
    if pid is None or host != socket.gethostname():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's process: it exists
        return False
    return _zombie(pid)


def _zombie(pid: int) -> bool:
    """A process that has exited but whose parent has not collected it yet (Linux) is gone too."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            return f.read().rpartition(")")[2].split()[0] == "Z"
    except (OSError, IndexError):
        return False


def _result_doc(result: Any) -> dict[str, Any]:
    """The ``WorkloadResult.to_dict()`` form of ``result``, checked."""
    if isinstance(result, Comparison):
        raise TypeError("expected a WorkloadResult, got a Comparison: use Store.save_comparison(comparison), "
                        "or wrap it as WorkloadResult(workload, params, 'ok', comparison)")
    if hasattr(result, "to_dict"):
        doc = result.to_dict()
    elif isinstance(result, Mapping):
        doc = dict(result)
    else:
        raise TypeError(f"expected a WorkloadResult (or its to_dict() form), got {type(result).__name__}")
    missing = [k for k in ("workload", "status") if k not in doc]
    if missing:
        raise ValueError(f"a workload result needs {', '.join(missing)}; got keys {sorted(doc)}")
    if doc["status"] not in RESULT_STATUSES:
        raise ValueError(f"result status must be one of {', '.join(RESULT_STATUSES)}, got {doc['status']!r}")
    comparison = doc.get("comparison")
    if isinstance(comparison, Comparison):
        comparison = comparison.to_dict()
    return {
        "workload": str(doc["workload"]),
        "params": dict(doc.get("params") or {}),
        "status": doc["status"],
        "comparison": comparison,
        "error": str(doc.get("error") or ""),
        "duration": float(doc.get("duration") or 0.0),
    }
