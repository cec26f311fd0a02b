"""The one way levelbench writes a file a user can see: whole or not at all; and the one way it reads one
without blocking on a FIFO or reading a device forever (`read_regular_file`).

Every command that writes a user's file (``doctor --fix``, ``export -o``, ``report --html``, ``merge -o``,
``run -o``, the pytest plugin's JSON) goes through `replace_file`: the text goes to a temporary file in the
same directory, is flushed to the disk, takes the mode (and, where allowed, the owner) of the file it replaces
(a new file gets what the umask gives, as ``open(path, "w")`` would), and is then renamed over the target in
one step. A full disk, a signal or a crash in between leaves the old file as it was and no stray temporary
file behind.

A file that was read to compute what is written (``--fix``) is written only if it still holds what was read
(``expect``, e.g. `Snapshot.unchanged`): an edit that lands while levelbench works is kept, and `FileChanged` says so.
"""

from __future__ import annotations

import contextlib
import errno
import hashlib
import os
import stat
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

from .signals import interrupts_held


class FileChanged(Exception):
    """The file no longer holds what was read from it: writing now would lose what changed."""


@dataclass(frozen=True)
class Snapshot:
    """What a file held when it was read: enough to tell, just before writing, whether it changed."""

    path: Path
    size: int
    digest: str

    @classmethod
    def of(cls, path: str | Path, data: bytes | None = None) -> Snapshot:
        """The snapshot of ``path`` now, or of ``data`` as read from it."""
        path = Path(path)
        if data is None:
            data = path.read_bytes()
        return cls(path, len(data), hashlib.sha256(data).hexdigest())

    def unchanged(self) -> bool:
        """Whether the file still holds exactly the bytes it held when this snapshot was taken."""
        try:
            if self.path.stat().st_size != self.size:
                return False
            return hashlib.sha256(self.path.read_bytes()).hexdigest() == self.digest
        except OSError:
            return False


def current_umask() -> int:
    """The process's umask (read by setting it and setting it back: POSIX has no other way)."""
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def replace_file(path: str | Path, data: bytes | str, *, encoding: str = "utf-8",
                 expect: Callable[[], bool] | None = None) -> None:
    """Write ``data`` to ``path`` atomically (see the module's docstring).

    ``path`` is written where it really is: a symbolic link keeps pointing at the file, which gets the new
    text. With ``expect`` (a check such as ``Snapshot.unchanged``, run just before the rename), the file must
    still be as it was read, or `FileChanged` is raised and nothing is written. `OSError` (a full disk, a read-only place) is raised as it comes, after the temporary
    file is removed; the target is then untouched.
    """
    target = Path(os.path.realpath(path))
    payload = data.encode(encoding) if isinstance(data, str) else data
    try:
        before = target.stat()
    except FileNotFoundError:
        before = None
    if before is not None and not stat.S_ISREG(before.st_mode):
        what = "Is a directory" if stat.S_ISDIR(before.st_mode) else "Not a regular file"
        raise OSError(errno.EISDIR if stat.S_ISDIR(before.st_mode) else errno.EINVAL, what, str(target))
    fd, temporary = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.", suffix=".partial")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
            f.flush()
            os.fsync(f.fileno())
        if before is not None:
            os.chmod(temporary, stat.S_IMODE(before.st_mode))
            with contextlib.suppress(OSError):  # only root may give a file away; others keep their own
                if (before.st_uid, before.st_gid) != (os.getuid(), os.getgid()):
                    os.chown(temporary, before.st_uid, before.st_gid)
        else:
            os.chmod(temporary, 0o666 & ~current_umask())
        with interrupts_held() as caught:  # the check and the rename are one step for Ctrl-C
            if expect is not None and not expect():
                raise FileChanged(f"{path} changed since it was read")
            os.replace(temporary, target)
        sync_folder(target.parent)
        if caught:
            raise caught[0]
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def fsync_path(path: str | Path) -> None:
    """Flush a file, or a folder's entries, to the disk by its path; `OSError` as it comes."""
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def sync_folder(folder: str | Path) -> None:
    """Flush a rename in ``folder`` to the disk (a crash right after it could otherwise undo it); a folder
    that cannot be flushed (some file systems refuse) is left as it is."""
    with contextlib.suppress(OSError):
        fsync_path(folder)


def why_not_written(e: OSError) -> str:
    """A failed write's reason in the user's words, with what to do where there is something to do."""
    if e.errno == errno.ENOSPC:
        return "disk full: free some space"
    if e.errno == errno.EROFS:
        return "read-only file system"
    if e.errno in (errno.EACCES, errno.EPERM):
        return "permission denied: the file or its folder is read-only or immutable"
    return e.strerror or str(e)


# -- reading -----------------------------------------------------------------------------------------------
class FileRefused(OSError):
    """A user's file that is not read: not a regular file (a FIFO would block, ``/dev/zero`` never end), or
    larger than the reader's limit. ``str()`` says which, in words (``not a regular file but a named pipe
    (FIFO)``, ``file is 12.0 MB, over the 10.0 MB limit``); the caller adds its own fix."""


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def file_refusal(info: os.stat_result, max_bytes: int) -> str:
    """Why a file with this ``stat`` is not read (empty: it is read)."""
    if not stat.S_ISREG(info.st_mode):
        kind = next((k for test, k in _KINDS if test(info.st_mode)), "something else")
        return f"not a regular file but {kind}"
    if info.st_size > max_bytes:
        return f"file is {size_text(info.st_size)}, over the {size_text(max_bytes)} limit"
    return ""


def read_regular_file(path: str | Path, max_bytes: int) -> bytes:
    """The bytes of the regular file at ``path``, at most ``max_bytes`` of them.

    The kind and size are checked before reading, on the open file itself (opened without blocking), so a
    file swapped for a FIFO in between is refused too, and a file that grows past the limit while it is read
    is refused rather than read on. Raises `FileRefused`, or `OSError` as opening or reading raises it.
    """
    refused = file_refusal(os.stat(path), max_bytes)
    if refused:
        raise FileRefused(refused)
    fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    try:
        refused = file_refusal(os.fstat(fd), max_bytes)
        if refused:
            raise FileRefused(refused)
        with os.fdopen(os.dup(fd), "rb") as f:
            data = read_at_most(f, max_bytes + 1)
    finally:
        os.close(fd)
    if len(data) > max_bytes:
        raise FileRefused(f"file grew over the {size_text(max_bytes)} limit while it was read")
    return data


def read_at_most(stream: BinaryIO, limit: int) -> bytes:
    """Up to ``limit`` bytes, read in 1 MiB pieces: ``read(limit)`` allocates ``limit`` bytes up front, a
    MemoryError for a limit of 1 TiB."""
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        chunk = stream.read(min(1 << 20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


def size_text(size: int) -> str:
    """``12.0 MB`` (MiB, as the limits are set), or ``512 bytes``."""
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size} bytes"
