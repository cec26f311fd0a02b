"""The results database's schema: the first version verbatim, then every migration since, in order.

A levelbench database is recognised by SQLite's ``application_id`` header field; its schema
version is ``user_version``. A fresh database is created by running `SCHEMA_V1` and then every
migration, so new and upgraded databases always go through the same steps.

The full result of each workload (a `Comparison` document with every raw sample) is stored as
JSON in ``results.comparison``: that document is the truth. The ``candidates`` and ``findings``
tables (version 2) repeat its headline numbers as columns, for ``history`` and for SQL users.
"""

from __future__ import annotations

import dataclasses
import json
import sqlite3
from collections.abc import Callable, Iterator
from typing import Any

# "LBEN" in the header's application_id: what tells a levelbench database from any other SQLite file.
APPLICATION_ID = 0x4C42454E

SCHEMA_V1 = f"""
PRAGMA application_id = {APPLICATION_ID};
PRAGMA user_version = 1;
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('format', 'levelbench.results');
CREATE TABLE runs (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    kind        TEXT NOT NULL,              -- run | measure | compare
    started     REAL NOT NULL,              -- unix time
    finished    REAL,
    status      TEXT NOT NULL,              -- running | ok | interrupted | failed
    argv        TEXT NOT NULL,              -- JSON list
    git_commit  TEXT,
    environment TEXT NOT NULL               -- JSON, see levelbench.environment
);
CREATE TABLE results (
    id          INTEGER PRIMARY KEY AUTOINCREMENT,
    run_id      INTEGER NOT NULL REFERENCES runs(id) ON DELETE CASCADE,
    workload    TEXT NOT NULL,
    params      TEXT NOT NULL,              -- JSON object, keys sorted
    status      TEXT NOT NULL,              -- ok | failed | timeout | skipped | interrupted
    error       TEXT NOT NULL DEFAULT '',
    duration    REAL NOT NULL DEFAULT 0,
    comparison  TEXT,                       -- JSON: Comparison.to_dict(), raw samples included
    recorded    REAL NOT NULL
);
CREATE INDEX results_by_run ON results(run_id);
"""


@dataclasses.dataclass(frozen=True)
class Migration:
    """One step from ``version - 1`` to ``version``: DDL statements, then an optional data step."""

    version: int
    description: str
    statements: tuple[str, ...]
    backfill: Callable[[sqlite3.Connection], None] | None = None


def candidate_rows(doc: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
    """``candidates`` columns (after ``result_id``) from a ``Comparison.to_dict()`` document."""
    ratios = doc.get("ratios") or {}
    verdicts = doc.get("verdicts") or {}
    for name, m in (doc.get("measurements") or {}).items():
        samples = m.get("samples") or []
        stats = m.get("stats") or {}
        ci = stats.get("ci") or {}
        median = stats.get("median")
        if median is None and samples:
            median = sorted(samples)[len(samples) // 2]
        compile_doc = m.get("compile")
        if compile_doc:
            compile_time = compile_doc.get("trace", 0.0) + compile_doc.get("lower", 0.0) + compile_doc.get("compile", 0.0)
        else:
            compile_time = m.get("compile_in_first_call") or None
        ratio = ratios.get(name) or {}
        yield (name, m.get("framework", ""), median, ci.get("lower"), ci.get("upper"), len(samples),
               m.get("first_call"), compile_time, ratio.get("estimate"), ratio.get("lower"), ratio.get("upper"),
               verdicts.get(name))


def finding_rows(doc: dict[str, Any]) -> Iterator[tuple[str, str, str, str]]:
    """``findings`` columns (after ``result_id``): the comparison's own, then each candidate's."""
    for f in doc.get("findings") or ():
        yield f.get("subject", ""), f["code"], f.get("severity", "warning"), f["title"]
    for name, m in (doc.get("measurements") or {}).items():
        for f in m.get("findings") or ():
            yield name, f["code"], f.get("severity", "warning"), f["title"]


INSERT_CANDIDATE = ("INSERT INTO candidates (result_id, name, framework, median, ci_lower, ci_upper, n_samples, "
                    "first_call, compile_time, ratio, ratio_lower, ratio_upper, verdict) "
                    "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)")
INSERT_FINDING = "INSERT INTO findings (result_id, candidate, code, severity, title) VALUES (?, ?, ?, ?, ?)"


def index_comparison(conn: sqlite3.Connection, result_id: int, doc: dict[str, Any]) -> None:
    """Fill ``candidates`` and ``findings`` for one stored comparison document."""
    conn.executemany(INSERT_CANDIDATE, [(result_id, *row) for row in candidate_rows(doc)])
    conn.executemany(INSERT_FINDING, [(result_id, *row) for row in finding_rows(doc)])


def _backfill_v2(conn: sqlite3.Connection) -> None:
    rows = conn.execute("SELECT id, comparison FROM results WHERE comparison IS NOT NULL").fetchall()
    for result_id, text in rows:
        index_comparison(conn, result_id, json.loads(text))


MIGRATIONS: tuple[Migration, ...] = (
    Migration(
        2,
        "run labels (measure/compare save=True), per-candidate and per-finding columns, workload index",
        (
            "ALTER TABLE runs ADD COLUMN label TEXT NOT NULL DEFAULT ''",
            """CREATE TABLE candidates (
                result_id    INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
                name         TEXT NOT NULL,
                framework    TEXT NOT NULL,
                median       REAL,               -- seconds per call
                ci_lower     REAL,
                ci_upper     REAL,
                n_samples    INTEGER NOT NULL,
                first_call   REAL,
                compile_time REAL,               -- trace + lower + compile, or compile seen in the first call
                ratio        REAL,               -- median / baseline median, paired bootstrap CI
                ratio_lower  REAL,
                ratio_upper  REAL,
                verdict      TEXT,               -- baseline | faster | slower | indistinguishable
                PRIMARY KEY (result_id, name)
            )""",
            """CREATE TABLE findings (
                result_id INTEGER NOT NULL REFERENCES results(id) ON DELETE CASCADE,
                candidate TEXT NOT NULL,
                code      TEXT NOT NULL,
                severity  TEXT NOT NULL,
                title     TEXT NOT NULL
            )""",
            "CREATE INDEX results_by_workload ON results(workload, run_id)",
            "CREATE INDEX findings_by_code ON findings(code)",
        ),
        _backfill_v2,
    ),
    Migration(
        3,
        "who runs a run (pid, host: a `running` run whose process is gone reads as `abandoned`) and why it failed",
        (
            "ALTER TABLE runs ADD COLUMN pid INTEGER",
            "ALTER TABLE runs ADD COLUMN host TEXT",
            "ALTER TABLE runs ADD COLUMN error TEXT NOT NULL DEFAULT ''",
        ),
    ),
)

SCHEMA_VERSION = MIGRATIONS[-1].version if MIGRATIONS else 1


def statements(script: str) -> Iterator[str]:
    """Split a DDL script into statements (``executescript`` would commit the open transaction)."""
    pending = ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            if pending.strip():
                yield pending.strip()
            pending = ""
    if pending.strip():
        yield pending.strip()


def create(conn: sqlite3.Connection) -> None:
    """Create the current schema in an empty database (inside the caller's transaction)."""
    for stmt in statements(SCHEMA_V1):
        conn.execute(stmt)
    migrate(conn, 1)


def migrate(conn: sqlite3.Connection, version: int) -> None:
    """Apply every migration after ``version`` (inside the caller's transaction)."""
    for m in MIGRATIONS:
        if m.version <= version:
            continue
        for stmt in m.statements:
            conn.execute(stmt)
        if m.backfill:
            m.backfill(conn)
        conn.execute(f"PRAGMA user_version = {m.version}")
