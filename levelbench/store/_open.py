"""Opening the results database: the file checked (a levelbench SQLite database, an empty file, or
nothing yet), created or upgraded, in WAL mode, with errors that say what was found and the fix.

`connect` is the one way in; `levelbench.store.open_store` wraps its connection in a `Store`.
"""

from __future__ import annotations

import contextlib
import os
import random
import sqlite3
import stat
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from . import _schema
from .._values import settings

# Long enough to outlast another process's write (each is one short transaction).
BUSY_TIMEOUT_S = 30.0
_SQLITE_HEADER = b"SQLite format 3\x00"


class StoreError(Exception):
    """The results database cannot be used: what was expected, what was found, and the fix."""


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection, mode: str = "IMMEDIATE") -> Iterator[sqlite3.Connection]:
    """``BEGIN <mode>`` ... ``COMMIT``; anything raised inside (Ctrl-C included) rolls it back whole.

    A commit that fails (a full disk) is rolled back too, so nothing of it stays half-written."""
    conn.execute(f"BEGIN {mode}")
    try:
        yield conn
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def default_path() -> Path:
    """``$LEVELBENCH_DB``, else ``.levelbench/results.db`` in the working directory."""
    return settings.db_path()


def connect(path: Path, create: bool = True, option: str = "--db") -> tuple[sqlite3.Connection, bool]:
    """An SQLite connection to the results database at ``path``, checked and created or upgraded, and
    whether it is read-only (on read-only media: readable, never written). Raises `StoreError`, leaving
    a file that is not a levelbench database untouched; see `open_store` for ``create`` and ``option``."""
    _check_file(path, create, option)
    if path.exists() and not _writable(path):
        if not create:
            return _open_read_only(path, option), True
        raise StoreError(f"the results database {path} is on read-only media or not writable: it can be read "
                         "(history, diff, report, export), not recorded to; "
                         f"{_choose_another(option, 'a writable path')}")
    if not path.exists():
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            also = " (or set LEVELBENCH_DB)" if option == "--db" else ""
            raise StoreError(f"cannot create the results database {path}: {e.strerror}: "
                             f"{_choose_another(option, 'a writable path')}{also}") from None
    try:
        conn = sqlite3.connect(path, timeout=BUSY_TIMEOUT_S, isolation_level=None)
    except sqlite3.Error as e:
        raise StoreError(f"cannot open the results database {path}: {e}: check the path and its permissions") from None
    try:
        _prepare(conn, path, option)
    except BaseException:
        conn.close()
        raise
    return conn, False


def _choose_another(option: str, what: str = "another path") -> str:
    """The fix that names another database, in the words of how the user named this one: ``--db`` and
    merge's ``-o`` are options; the pytest plugin has none, only ``$LEVELBENCH_DB``; a merge source is
    one of the files listed."""
    if option == "source":
        return "leave it out of the sources (merge reads only levelbench results databases, such as a host's " \
               ".levelbench/results.db)"
    if option.startswith("-"):
        return f"pass {option} with {what}"
    return f"set {option} to {what}"


def _example(option: str, path: Path) -> str:
    if option == "source":
        return f"name the database file in it, e.g. {path}"
    if option.startswith("-"):
        return f"pass a file path, e.g. {option} {path}"
    return f"set {option} to a file path, e.g. {path}"


def _writable(path: Path) -> bool:
    """Whether SQLite could write beside ``path`` (its -wal and -shm files): really, not by permission bits
    (root passes those, a read-only mount does not)."""
    try:
        fd, probe = tempfile.mkstemp(dir=path.parent, prefix=".levelbench-probe-")
    except OSError:
        return False
    os.close(fd)
    os.unlink(probe)
    return os.access(path, os.W_OK)


def _open_read_only(path: Path, option: str) -> sqlite3.Connection:
    """A database on read-only media (a mounted backup, a CI artefact): opened for reading only, as
    an immutable file, since SQLite cannot create its lock files there."""
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro&immutable=1", uri=True, isolation_level=None)
        app_id, version, tables = _identity(conn)
        _check_identity(path, app_id, version, tables, option)
        if app_id == 0:
            raise StoreError(f"expected a levelbench results database, got an empty file at {path}: record runs "
                             "with `levelbench run` first")
    except sqlite3.DatabaseError as e:
        raise _error(path, e, option) from None
    return conn


def _check_file(path: Path, create: bool, option: str = "--db") -> None:
    if path.is_dir():
        raise StoreError(f"expected a levelbench results database, got the directory {path}: "
                         f"{_example(option, path / 'results.db')}")
    if not path.exists():
        if not create:
            fix = ("or pass --db PATH (or set LEVELBENCH_DB)" if option.startswith("-") else
                   f"or set {option} to the database's path")
            raise StoreError(f"no results database at {path}: record runs with `levelbench run` first, {fix}")
        return
    kind = _special_file(path)
    if kind:  # SQLite would "open" /dev/null and then fail every write as a disk I/O error; a FIFO would block
        raise StoreError(f"expected a levelbench results database, got {kind} at {path}, not a file "
                         f"(a database needs a regular file): {_choose_another(option, 'a file path')}")
    try:
        with open(path, "rb") as f:
            head = f.read(100)
    except OSError as e:
        raise StoreError(f"cannot read the results database {path}: {e.strerror}") from None
    if head and not head.startswith(_SQLITE_HEADER):
        raise StoreError(f"expected a levelbench results database, got {_describe(head)} at {path}: "
                         f"{_move_away(option)}")


def _special_file(path: Path) -> str:
    """What ``path`` is when it is not a regular file (a device, a named pipe, a socket), or ``""``."""
    try:
        mode = path.stat().st_mode
    except OSError:
        return ""
    for test, kind in ((stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISFIFO, "a named pipe (FIFO)"), (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return kind
    return ""


def _move_away(option: str) -> str:
    if option == "source":
        return _choose_another(option)
    return f"{_choose_another(option)}, or move that file away (levelbench never overwrites it)"


def _describe(head: bytes) -> str:
    text = head.decode("utf-8", "replace")
    if sum(c.isprintable() or c in "\r\n\t" for c in text) >= 0.95 * len(text):
        first = text.strip().splitlines()[0] if text.strip() else ""
        return f"a text file starting {first[:40]!r}"
    return f"a file that is not SQLite (first bytes {head[:8].hex(' ')})"


def _identity(conn: sqlite3.Connection) -> tuple[int, int, list[str]]:
    """Application id, schema version and tables, read in one transaction: one consistent snapshot
    (read one by one, they could straddle another process's creation of the schema)."""
    own = not conn.in_transaction
    if own:
        conn.execute("BEGIN")
    try:
        app_id = conn.execute("PRAGMA application_id").fetchone()[0]
        version = conn.execute("PRAGMA user_version").fetchone()[0]
        tables = [r[0] for r in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name")]
    finally:
        if own:
            conn.execute("COMMIT")
    return app_id, version, tables


def _prepare(conn: sqlite3.Connection, path: Path, option: str = "--db") -> None:
    """Check this is a levelbench database (or an empty file), then create or migrate it."""
    try:
        conn.execute(f"PRAGMA busy_timeout = {int(BUSY_TIMEOUT_S * 1000)}")
        app_id, version, tables = _identity(conn)
        if app_id == 0 and tables:
            # Another program's database, or ours while another levelbench creates it: the creator
            # holds the write lock until the schema and its stamp are in, so look again under it.
            conn.execute("BEGIN IMMEDIATE")
            try:
                app_id, version, tables = _identity(conn)
            finally:
                conn.execute("COMMIT")
        _check_identity(path, app_id, version, tables, option)
        _use_wal(conn)
        conn.execute("PRAGMA synchronous = NORMAL")  # with WAL: durable against crashes, fewer fsyncs
        conn.execute("PRAGMA foreign_keys = ON")
        if app_id == _schema.APPLICATION_ID and version == _schema.SCHEMA_VERSION:
            return
        with transaction(conn):
            # Another process may have created or upgraded it while this one waited for the lock.
            app_id, version, tables = _identity(conn)
            _check_identity(path, app_id, version, tables, option)
            if not tables:
                _schema.create(conn)
            elif version < _schema.SCHEMA_VERSION:
                _schema.migrate(conn, version)
    except sqlite3.DatabaseError as e:
        raise _error(path, e, option) from None


def _use_wal(conn: sqlite3.Connection) -> None:
    """Switch to write-ahead logging, once per database. Switching needs the database to itself, and
    SQLite answers "locked" at once (without its busy wait) while another connection reads it, as
    every process does that opens a new database at the same moment: so wait here, a little at a time."""
    deadline = time.monotonic() + BUSY_TIMEOUT_S
    while True:
        try:
            if conn.execute("PRAGMA journal_mode").fetchone()[0].lower() != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            return
        except sqlite3.OperationalError as e:
            if not ("locked" in str(e) or "busy" in str(e)) or time.monotonic() > deadline:
                raise
            time.sleep(0.005 + 0.02 * random.random())


def _check_identity(path: Path, app_id: int, version: int, tables: list[str], option: str = "--db") -> None:
    if app_id == _schema.APPLICATION_ID:
        if version > _schema.SCHEMA_VERSION:
            raise StoreError(f"the results database {path} has schema version {version}, written by a newer "
                             f"levelbench (this one reads up to {_schema.SCHEMA_VERSION}): upgrade levelbench")
        return
    if app_id == 0 and not tables:
        return  # a new, empty SQLite file
    shown = ", ".join(tables[:6]) + (", ..." if len(tables) > 6 else "")
    raise StoreError(f"expected a levelbench results database, got an SQLite database of another program at {path} "
                     f"(tables: {shown or 'none'}; application_id {app_id:#x}): {_move_away(option)}")


def _error(path: Path, e: sqlite3.Error, option: str = "--db") -> StoreError:
    text = str(e)
    if "locked" in text or "busy" in text:
        return StoreError(f"the results database {path} stayed locked by another process for "
                          f"{BUSY_TIMEOUT_S:g} s ({text}): retry when the other levelbench finishes")
    if "disk is full" in text or "disk I/O error" in text:
        return StoreError(f"disk full: the results database {path} could not be written ({text}): free some space "
                          "(what was recorded before is kept)")
    if "readonly" in text or "read-only" in text:
        return StoreError(f"the results database {path} is on read-only media or not writable ({text}): "
                          "history, diff, report and export can still read it; "
                          f"{_choose_another(option, 'a writable path')} to record")
    if isinstance(e, sqlite3.DatabaseError) and ("not a database" in text or "malformed" in text):
        return StoreError(f"expected a levelbench results database, got a damaged SQLite file at {path} ({text}): "
                          "restore it from a backup, or move it away to start a new one")
    return StoreError(f"the results database {path} failed: {type(e).__name__}: {text}")
