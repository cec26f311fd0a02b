"""Merging results databases written on different hosts into one, run ids renumbered: all or nothing.

A source is only read (opened read-only, in one read transaction: one consistent snapshot even while
its owner records to it), and only at this levelbench's schema version: merging an older file would
mean migrating it behind its owner's back, and a newer one holds columns this version does not know.
A run already in the target (same start time, kind, command line and host) is skipped, so merging the
same file twice adds nothing; but a copy that was taken before its run ended (status ``running``) is
brought up to date when a source has more of it. A run still being recorded on this host (its process
is alive) is left out, and said so: merging it now would freeze a part of it.

Nothing is written unless every source is merged. Every source is checked before the output is touched;
then the merge is prepared (`prepare_merge`) and made visible in one step (`PendingMerge.commit`):

- into an existing output, in one write transaction (``BEGIN IMMEDIATE`` ... ``COMMIT``). Not a copy
  renamed over it: a process that records into the output meanwhile (``levelbench run --db all.db``, a
  second merge) would lose what it wrote to the replaced file, and keep writing to a deleted one. The
  transaction serialises writers instead (each waits for the other, up to the store's busy timeout), so
  two merges at once skip what the other brought and duplicate nothing;
- into a new output, built as a temporary file beside it and hard-linked into place, which fails if
  another process created the output meanwhile (a concurrent merge): then the sources go into that
  one, in one transaction, as above.

Ctrl-C, SIGTERM or SIGHUP before the commit (or any error) rolls it back, or deletes the temporary file:
the output is as it was, or not there.
"""

from __future__ import annotations

import contextlib
import dataclasses
import errno
import json
import os
import socket
import sqlite3
import tempfile
from collections.abc import Sequence
from pathlib import Path

from .._values.files import current_umask, fsync_path, sync_folder
from ._schema import APPLICATION_ID, SCHEMA_VERSION
from ._open import (
    BUSY_TIMEOUT_S, StoreError, _check_file, _check_identity, _error, _identity, _prepare, transaction)
from ._store import Store, _gone, open_store


@dataclasses.dataclass(frozen=True)
class Merged:
    """What one source added: runs and results copied, runs skipped as already present, incomplete
    copies brought up to date, and runs left out because they are still being recorded."""

    source: Path
    runs: int
    results: int
    skipped: int
    updated: int = 0
    running: tuple[int, ...] = ()
    """Ids (in the source) of runs left out: still recorded by a live process on this host."""
    unfinished: tuple[tuple[int, str], ...] = ()
    """(id in the source, host) of runs copied while marked running on another host: as far as they got."""


def merge_into(target: Store, sources: Sequence[str | Path]) -> list[Merged]:
    """Copy every run of ``sources`` into the open store ``target``, in one transaction.

    Raises:
        StoreError: a source is missing, not a levelbench database, at another schema version, or
            the target itself; nothing has been written then.
        KeyboardInterrupt: Ctrl-C (or SIGTERM/SIGHUP, under `stop_on_signals`) before the commit: rolled back.
    """
    if target.read_only:
        raise StoreError(f"the results database {target.path} is on read-only media: it can be read, not merged "
                         "into; open a writable one")
    opened = _open_sources(sources, target.path)
    try:
        pending = _Transaction(target._conn, target.path, target.option, opened, own=None)
        pending.commit()
        return pending.merged
    finally:
        _close(opened)


def prepare_merge(output: str | Path, sources: Sequence[str | Path]) -> "PendingMerge":
    """Merge ``sources`` into ``output`` without making it visible yet: `PendingMerge.commit` does, in one
    step; `PendingMerge.discard` (or leaving a ``with`` block without commit) leaves ``output`` as it was.

        >>> with prepare_merge("all.db", ["a.db", "b.db"]) as pending:   # doctest: +SKIP
        ...     pending.commit()
        >>> pending.merged                                              # doctest: +SKIP

    Raises:
        StoreError: a source or the output cannot be used (what, why and the fix); nothing written.
    """
    out = Path(output)
    opened = _open_sources(sources, out)
    try:
        if out.exists() or out.is_symlink():
            store = open_store(out, option="-o")
            try:
                return _Transaction(store._conn, out, "-o", opened, own=store)
            except BaseException:
                store.close()
                raise
        return _NewFile(out, opened)
    except BaseException:
        _close(opened)
        raise


def merge_files(output: str | Path, sources: Sequence[str | Path]) -> list[Merged]:
    """`prepare_merge` and commit: what ``levelbench merge SOURCES -o OUTPUT`` does."""
    with prepare_merge(output, sources) as pending:
        pending.commit()
    return pending.merged


class PendingMerge:
    """A merge done but not visible: `commit` makes it visible in one step, `discard` throws it away."""

    merged: list[Merged]
    committed: bool = False

    def __init__(self, opened: list[tuple[Path, sqlite3.Connection]]) -> None:
        self._opened = opened
        self.merged = []

    def commit(self) -> None:
        raise NotImplementedError

    def discard(self) -> None:
        """Leave the output as it was (nothing to do after `commit`); close the sources."""
        _close(self._opened)

    def __enter__(self) -> "PendingMerge":
        return self

    def __exit__(self, *exc: object) -> None:
        self.discard()


class _Transaction(PendingMerge):
    """Every source merged into an open database inside one ``BEGIN IMMEDIATE`` transaction."""

    def __init__(self, conn: sqlite3.Connection, path: Path, option: str,
                 opened: list[tuple[Path, sqlite3.Connection]], own: Store | None) -> None:
        super().__init__(opened)
        self._conn, self._path, self._option, self._own = conn, path, option, own
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                self.merged = _merge_sources(conn, opened)
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as e:
            raise _error(path, e, option) from None

    def commit(self) -> None:
        if self.committed:
            return
        try:
            self._conn.execute("COMMIT")
        except sqlite3.Error as e:
            raise _error(self._path, e, self._option) from None
        finally:
            if self._conn.in_transaction:  # the commit failed (a full disk): nothing of it stays
                self._conn.execute("ROLLBACK")
        self.committed = True

    def discard(self) -> None:
        try:
            if not self.committed and self._conn.in_transaction:
                self._conn.execute("ROLLBACK")
        finally:
            if self._own is not None:
                self._own.close()
            super().discard()


class _NewFile(PendingMerge):
    """A new output: built as a temporary file in its folder, then hard-linked into place (no clobbering)."""

    def __init__(self, output: Path, opened: list[tuple[Path, sqlite3.Connection]]) -> None:
        super().__init__(opened)
        self._output = output
        self._made = _make_folders(output.parent)
        self._temporary: Path | None = None
        try:
            fd, name = tempfile.mkstemp(dir=output.parent, prefix=f".{output.name}.", suffix=".merging")
            os.close(fd)
            self._temporary = Path(name)
            os.chmod(name, 0o666 & ~current_umask())  # what a new database gets, not mkstemp's 0600
            conn = sqlite3.connect(name, timeout=BUSY_TIMEOUT_S, isolation_level=None)
        except OSError as e:
            self.discard()
            raise StoreError(f"cannot create the results database {output}: {e.strerror}: pass -o with a "
                             "writable path") from None
        try:
            _prepare(conn, output, "-o")  # errors name the output, not the temporary file
            with transaction(conn):
                self.merged = _merge_sources(conn, opened)
            # Only the database file is linked into place: everything must be in it, none left in the WAL.
            busy, frames, copied = conn.execute("PRAGMA wal_checkpoint(TRUNCATE)").fetchone()
            if busy or frames != copied:
                raise sqlite3.OperationalError(f"disk I/O error (checkpoint: {copied} of {frames} pages written)")
            conn.close()
            fsync_path(self._temporary)
        except sqlite3.Error as e:
            conn.close()
            self.discard()
            raise _error(output, e, "-o") from None
        except BaseException:
            conn.close()
            self.discard()
            raise

    def commit(self) -> None:
        if self.committed:
            return
        assert self._temporary is not None
        try:
            os.link(self._temporary, self._output)
        except OSError as e:
            if e.errno not in (errno.EEXIST, errno.EPERM, errno.ENOTSUP, errno.EOPNOTSUPP, errno.EMLINK):
                raise StoreError(f"cannot create the results database {self._output}: {e.strerror}: pass -o "
                                 "with a writable path") from None
            # Created meanwhile (a concurrent merge), or a file system without hard links: merge into
            # it as into any existing output.
            self._into_existing()
        else:
            sync_folder(self._output.parent)
        self.committed = True
        self.discard()

    def _into_existing(self) -> None:
        store = open_store(self._output, option="-o")
        try:
            pending = _Transaction(store._conn, self._output, "-o", self._opened, own=None)
            pending.commit()
            self.merged = pending.merged
        finally:
            store.close()

    def discard(self) -> None:
        try:
            if self._temporary is not None:
                for suffix in ("", "-wal", "-shm", "-journal"):
                    with contextlib.suppress(FileNotFoundError):
                        os.unlink(f"{self._temporary}{suffix}")
                self._temporary = None
            if not self.committed:
                for folder in reversed(self._made):  # folders made for the output, deepest first
                    with contextlib.suppress(OSError):
                        folder.rmdir()
            self._made = []
        finally:
            super().discard()


def _make_folders(folder: Path) -> list[Path]:
    """Create ``folder`` and its missing parents; the ones created, outermost first."""
    missing = []
    while not folder.exists() and folder != folder.parent:
        missing.append(folder)
        folder = folder.parent
    missing.reverse()
    for m in missing:
        try:
            m.mkdir()
        except FileExistsError:
            pass
        except OSError as e:
            for made in reversed(missing[:missing.index(m)]):
                with contextlib.suppress(OSError):
                    made.rmdir()
            raise StoreError(f"cannot create the folder {m} for the output: {e.strerror}: pass -o with a "
                             "writable path") from None
    return missing


# -- reading the sources ----------------------------------------------------------------------------
def _open_sources(sources: Sequence[str | Path], output: Path) -> list[tuple[Path, sqlite3.Connection]]:
    """Every source checked and opened, before anything is written; a `StoreError` names the first bad one."""
    paths = [Path(s) for s in sources]
    for p in paths:
        if p.resolve() == output.resolve() or _same_file(p, output):
            raise StoreError(f"{p} is the output database itself: pass a different -o/--output")
    opened: list[tuple[Path, sqlite3.Connection]] = []
    try:
        for p in paths:
            opened.append((p, _open_source(p)))
    except BaseException:
        _close(opened)
        raise
    return opened


def _same_file(a: Path, b: Path) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False


def _open_source(path: Path) -> sqlite3.Connection:
    if not path.exists():
        raise StoreError(f"no results database at {path}: expected a file written by `levelbench run` (check "
                         "the path)")
    _check_file(path, create=False, option="source")  # a directory, a device, text, random bytes
    try:
        conn = sqlite3.connect(f"{path.resolve().as_uri()}?mode=ro", uri=True, isolation_level=None)
    except sqlite3.Error as e:
        raise _source_error(path, e) from None
    try:
        conn.execute("BEGIN")  # one snapshot of the source, however long the merge takes
        app_id, version, tables = _identity(conn)
        if app_id == 0 and not tables:
            raise StoreError(f"expected a levelbench results database, got an empty file at {path}: it holds no "
                             "runs; leave it out of the sources")
        if app_id != APPLICATION_ID:
            _check_identity(path, app_id, version, tables, "source")  # another program's: names its tables
        if version < SCHEMA_VERSION:
            raise StoreError(f"{path} has schema version {version}, this levelbench writes {SCHEMA_VERSION}: "
                             f"migrate it first by opening it once (`levelbench history --db {path}`), then merge")
        if version > SCHEMA_VERSION:
            raise StoreError(f"{path} has schema version {version}, newer than this levelbench's {SCHEMA_VERSION}: "
                             "merge with the levelbench version that wrote it, or upgrade levelbench")
        fmt = conn.execute("SELECT value FROM meta WHERE key = 'format'").fetchone()
        if fmt is None or fmt[0] != "levelbench.results":
            raise StoreError(f"expected a levelbench results database, got {path}, which has levelbench's mark "
                             f"but not its format mark ({fmt[0] if fmt else 'none'}): leave it out of the sources")
    except sqlite3.Error as e:
        conn.close()
        raise _source_error(path, e) from None
    except BaseException:
        conn.close()
        raise
    conn.row_factory = sqlite3.Row
    return conn


def _source_error(path: Path, e: sqlite3.Error) -> StoreError:
    text = str(e)
    if "not a database" in text or "malformed" in text:
        return StoreError(f"expected a levelbench results database, got a damaged SQLite file at {path} ({text}): "
                          "leave it out of the sources, or restore it from a backup")
    if "locked" in text or "busy" in text:
        return StoreError(f"{path} stayed locked by another process ({text}): merge when it finishes")
    return StoreError(f"cannot read {path} ({type(e).__name__}: {text}): check that it is a levelbench "
                      "results database you can read")


def _close(opened: list[tuple[Path, sqlite3.Connection]]) -> None:
    for _, conn in opened:
        with contextlib.suppress(sqlite3.Error):
            conn.close()
    opened.clear()


# -- copying ------------------------------------------------------------------------------------------
@dataclasses.dataclass
class _Tally:
    runs: int = 0
    results: int = 0
    skipped: int = 0
    updated: int = 0
    running: list[int] = dataclasses.field(default_factory=list)
    unfinished: list[tuple[int, str]] = dataclasses.field(default_factory=list)


def _merge_sources(conn: sqlite3.Connection, opened: list[tuple[Path, sqlite3.Connection]]) -> list[Merged]:
    """Copy the runs of every source into ``conn`` (inside the caller's transaction), in the order they
    started across all sources: a new output's ids follow time, as a store's own do."""
    known = _target_runs(conn)
    columns = {t: _columns(conn, t) for t in ("runs", "results", "candidates", "findings")}
    tallies = [_Tally() for _ in opened]
    order = sorted((started, i, run_id) for i, (_, source) in enumerate(opened)
                   for started, run_id in source.execute("SELECT started, id FROM runs"))
    for _, i, run_id in order:
        source, tally = opened[i][1], tallies[i]
        run = source.execute("SELECT * FROM runs WHERE id = ?", (run_id,)).fetchone()
        if run["status"] == "running" and _recording_here(run):
            tally.running.append(run["id"])
            continue
        fingerprint = _fingerprint(tuple(run[c] for c in ("started", "kind", "argv", "environment")))
        present = known.get(fingerprint)
        if present is not None and not _more_of(source, run, present):
            tally.skipped += 1
            continue
        if present is not None:  # an incomplete copy, taken while it ran: replaced by the fuller one
            target_id = present[0]
            conn.execute("DELETE FROM candidates WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
                         (target_id,))
            conn.execute("DELETE FROM findings WHERE result_id IN (SELECT id FROM results WHERE run_id = ?)",
                         (target_id,))
            conn.execute("DELETE FROM results WHERE run_id = ?", (target_id,))
            conn.execute(f"UPDATE runs SET {', '.join(f'{c} = ?' for c in columns['runs'])} WHERE id = ?",
                         [*(run[c] for c in columns["runs"]), target_id])
            tally.updated += 1
        else:
            target_id = _insert(conn, "runs", columns["runs"], run)
            tally.runs += 1
        if run["status"] == "running":
            tally.unfinished.append((run["id"], run["host"] or "an unknown host"))
        count = 0
        for result in source.execute("SELECT * FROM results WHERE run_id = ? ORDER BY id", (run["id"],)):
            new_result = _insert(conn, "results", columns["results"], result, run_id=target_id)
            count += 1
            for table in ("candidates", "findings"):
                for row in source.execute(f"SELECT * FROM {table} WHERE result_id = ?", (result["id"],)):
                    _insert(conn, table, columns[table], row, result_id=new_result)
        tally.results += count
        known[fingerprint] = (target_id, run["status"], count)  # the same run in a later source: already there
    return [Merged(p, t.runs, t.results, t.skipped, t.updated, tuple(t.running), tuple(t.unfinished))
            for (p, _), t in zip(opened, tallies)]


def _target_runs(conn: sqlite3.Connection) -> dict[tuple, tuple[int, str, int]]:
    """The target's runs by fingerprint: (id, status as stored, number of results)."""
    counts = dict(conn.execute("SELECT run_id, COUNT(*) FROM results GROUP BY run_id").fetchall())
    return {_fingerprint(row[1:5]): (row[0], row[5], counts.get(row[0], 0))
            for row in conn.execute("SELECT id, started, kind, argv, environment, status FROM runs")}


def _recording_here(run: sqlite3.Row) -> bool:
    """A run whose recording process is alive on this host: merging it now would copy a part of it."""
    return run["host"] == socket.gethostname() and run["pid"] is not None and not _gone(run["pid"], run["host"])


def _more_of(source: sqlite3.Connection, run: sqlite3.Row, present: tuple[int, str, int]) -> bool:
    """Whether the source has more of a run than the copy already in the target: the copy was taken
    while the run was still being recorded (stored as ``running``), and the source has since ended it
    or recorded more results."""
    _, status, count = present
    if status != "running":
        return False
    n = source.execute("SELECT COUNT(*) FROM results WHERE run_id = ?", (run["id"],)).fetchone()[0]
    return run["status"] != "running" or n > count


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
