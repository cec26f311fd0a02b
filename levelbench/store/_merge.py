"""Merging results databases written on different hosts into one, run ids renumbered.

A source is only read (opened read-only), and only at this levelbench's schema version: merging
an older file would mean migrating it behind its owner's back, and a newer one holds columns this
version does not know. A run already in the target (same start time, kind, command line and
host) is skipped, so merging the same file twice adds nothing.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Sequence
from pathlib import Path

from ._schema import SCHEMA_VERSION
from ._store import Store, StoreError


@dataclasses.dataclass(frozen=True)
class Merged:
    """What one source added: runs and results copied, runs skipped as already present."""

    source: Path
    runs: int
    results: int
    skipped: int


def merge_into(target: Store, sources: Sequence[str | Path]) -> list[Merged]:
    """Copy every run of ``sources`` into ``target``, each under a new id; all sources are checked first.

    Raises:
        StoreError: a source is missing, not a levelbench database, at another schema version, or
            the target itself; nothing has been written then.
    """
    paths = [Path(s) for s in sources]
    for p in paths:
        if p.resolve() == target.path.resolve():
            raise StoreError(f"{p} is the output database itself: pass a different -o/--output")
    opened = [(p, _open_source(p)) for p in paths]
    try:
        return [_merge_one(target, p, conn) for p, conn in opened]
    finally:
        for _, conn in opened:
            conn.close()


def _open_source(path: Path) -> sqlite3.Connection:
    if not path.is_file():
        raise StoreError(f"no results database at {path}: expected a file written by `levelbench run`")
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True)
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        version = int(conn.execute("PRAGMA user_version").fetchone()[0])
    except sqlite3.Error as e:
        raise StoreError(f"expected a levelbench results database, got {path} ({e})") from None
    if fmt is None or fmt[0] != "levelbench.results":
        conn.close()
        raise StoreError(f"expected a levelbench results database, got {path} (no levelbench format mark)")
    if version != SCHEMA_VERSION:
        conn.close()
        if version < SCHEMA_VERSION:
            raise StoreError(f"{path} has schema version {version}, this levelbench writes {SCHEMA_VERSION}: migrate it "
                             f"first by opening it once (`levelbench history --db {path}`), then merge")
        raise StoreError(f"{path} has schema version {version}, newer than this levelbench's {SCHEMA_VERSION}: merge "
                         "with the levelbench version that wrote it, or upgrade levelbench")
    conn.row_factory = sqlite3.Row
    return conn


def _merge_one(target: Store, path: Path, source: sqlite3.Connection) -> Merged:
    runs = results = skipped = 0
    with target._write() as conn:  # one transaction per source: all of it or nothing
        known = {_fingerprint(r) for r in conn.execute("SELECT started, kind, argv, environment FROM runs")}
        run_columns = _columns(conn, "runs")
        result_columns = _columns(conn, "results")
        for run in source.execute("SELECT * FROM runs ORDER BY started, id"):
            if _fingerprint(tuple(run[c] for c in ("started", "kind", "argv", "environment"))) in known:
                skipped += 1
                continue
            new_run = _insert(conn, "runs", run_columns, run)
            runs += 1
            for result in source.execute("SELECT * FROM results WHERE run_id = ? ORDER BY id", (run["id"],)):
                new_result = _insert(conn, "results", result_columns, result, run_id=new_run)
                results += 1
                for table in ("candidates", "findings"):
                    for row in source.execute(f"SELECT * FROM {table} WHERE result_id = ?", (result["id"],)):
                        _insert(conn, table, _columns(conn, table), row, result_id=new_result)
    return Merged(path, runs, results, skipped)


def _fingerprint(row: tuple) -> tuple:
    started, kind, argv, environment = row
    try:
        host = json.loads(environment).get("hostname")
    except (TypeError, ValueError, AttributeError):
        host = None
    return started, kind, argv, host


def _columns(conn: sqlite3.Connection, table: str) -> list[str]:
    return [r[1] for r in conn.execute(f"PRAGMA table_info({table})") if r[1] != "id"]


def _insert(conn: sqlite3.Connection, table: str, columns: list[str], row: sqlite3.Row, **override: int) -> int:
    values = [override.get(c, row[c]) for c in columns]
    marks = ", ".join("?" * len(columns))
    cur = conn.execute(f"INSERT INTO {table} ({', '.join(columns)}) VALUES ({marks})", values)
    return int(cur.lastrowid)
