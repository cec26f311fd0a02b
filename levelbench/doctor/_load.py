"""Finding and reading the inputs: files, directories (recursively), and ``-`` for standard input.

Anything that cannot be read becomes an `Unreadable` with a one-line reason; the run goes on.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import io
import os
import stat
import sys
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import BinaryIO

from ._notebook import looks_like_notebook

DEFAULT_MAX_BYTES = 10 * 1024 * 1024
_SKIPPED_DIRS = frozenset({"venv", "__pycache__", "node_modules", "site-packages", "build", "dist"})
_SUFFIXES = (".py", ".ipy", ".ipynb")


@dataclasses.dataclass(frozen=True)
class SourceText:
    """A readable input: Python source or notebook JSON."""

    path: str
    text: str
    notebook: bool


@dataclasses.dataclass(frozen=True)
class Unreadable:
    """An input that could not be read, and why, in one line."""

    path: str
    message: str


def iter_inputs(
    paths: Iterable[str | os.PathLike[str]],
    *,
    exclude: Iterable[str] = (),
    max_bytes: int = DEFAULT_MAX_BYTES,
    stdin_name: str = "<stdin>",
) -> Iterator[SourceText | Unreadable]:
    """Every input named by ``paths``, in order; directories are searched for ``*.py`` and ``*.ipynb``."""
    patterns = tuple(exclude)
    for raw in paths:
        name = os.fspath(raw)
        if name == "-":
            yield _read_stdin(stdin_name, max_bytes)
            continue
        path = Path(name)
        if _excluded(path, patterns):
            continue
        if path.is_dir():
            yield from _read_directory(path, patterns, max_bytes)
        elif path.exists():
            yield read_file(path, max_bytes)
        else:
            yield Unreadable(name, "no such file or directory")


def _read_directory(root: Path, patterns: tuple[str, ...], max_bytes: int) -> Iterator[SourceText | Unreadable]:
    errors: list[OSError] = []
    for directory, subdirs, files in os.walk(root, onerror=errors.append):
        subdirs[:] = sorted(
            d for d in subdirs
            if not d.startswith(".") and d not in _SKIPPED_DIRS and not _excluded(Path(directory) / d, patterns)
        )
        for file in sorted(files):
            path = Path(directory) / file
            if path.suffix in _SUFFIXES and not _excluded(path, patterns):
                yield read_file(path, max_bytes)
    for error in errors:
        yield Unreadable(str(error.filename or root), f"cannot read directory: {error.strerror or error}")


def _excluded(path: Path, patterns: tuple[str, ...]) -> bool:
    text = path.as_posix()
    return any(fnmatch.fnmatch(text, p) or fnmatch.fnmatch(path.name, p) for p in patterns)


def read_file(path: Path, max_bytes: int = DEFAULT_MAX_BYTES) -> SourceText | Unreadable:
    """Read one file; ``.ipynb`` files are notebooks, anything else is Python source.

    Only regular files are read, and at most ``max_bytes`` of them: a FIFO or a device (``/dev/zero``)
    would block or never end. The kind and size are checked before reading, on the open file itself, so
    a file swapped for a FIFO in between is refused too.
    """
    name = str(path)
    try:
        refused = _refusal(os.stat(path), max_bytes)
        if refused:
            return Unreadable(name, refused)
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
        try:
            refused = _refusal(os.fstat(fd), max_bytes)
            if refused:
                return Unreadable(name, refused)
            with os.fdopen(os.dup(fd), "rb") as f:
                data = _read_at_most(f, max_bytes + 1)
        finally:
            os.close(fd)
    except OSError as e:
        return Unreadable(name, f"cannot read: {e.strerror or e}")
    if len(data) > max_bytes:  # it grew after the check
        return Unreadable(name, f"file is over the {_mb(max_bytes)} limit (raise it with --max-bytes)")
    return _decode(name, data, notebook=path.suffix == ".ipynb")


def _read_at_most(stream: BinaryIO, limit: int) -> bytes:
    """Up to ``limit`` bytes, read in 1 MiB pieces: ``read(limit)`` allocates ``limit`` bytes up front,
    a MemoryError for ``--max-bytes 1099511627776``."""
    chunks: list[bytes] = []
    total = 0
    while total < limit:
        chunk = stream.read(min(1 << 20, limit - total))
        if not chunk:
            break
        chunks.append(chunk)
        total += len(chunk)
    return b"".join(chunks)


_KINDS = (
    (stat.S_ISDIR, "a directory"),
    (stat.S_ISFIFO, "a named pipe (FIFO)"),
    (stat.S_ISCHR, "a character device"),
    (stat.S_ISBLK, "a block device"),
    (stat.S_ISSOCK, "a socket"),
)


def _refusal(info: os.stat_result, max_bytes: int) -> str:
    """Why a file with this ``stat`` is not read (empty: it is read)."""
    if not stat.S_ISREG(info.st_mode):
        kind = next((k for test, k in _KINDS if test(info.st_mode)), "something else")
        return f"not a regular file but {kind}: the doctor reads Python files and Jupyter notebooks"
    if info.st_size > max_bytes:
        return f"file is {_mb(info.st_size)}, over the {_mb(max_bytes)} limit (raise it with --max-bytes)"
    return ""


def _read_stdin(name: str, max_bytes: int) -> SourceText | Unreadable:
    try:
        data = _read_at_most(sys.stdin.buffer, max_bytes + 1)
    except (OSError, ValueError, AttributeError) as e:
        return Unreadable(name, f"cannot read standard input: {e}")
    if len(data) > max_bytes:
        return Unreadable(name, f"standard input is over the {_mb(max_bytes)} limit (raise it with --max-bytes)")
    result = _decode(name, data, notebook=name.endswith(".ipynb"))
    if isinstance(result, SourceText) and not result.notebook and looks_like_notebook(result.text):
        return dataclasses.replace(result, notebook=True)
    return result


def _decode(name: str, data: bytes, *, notebook: bool) -> SourceText | Unreadable:
    if b"\0" in data[:8192]:
        return Unreadable(name, "binary file: expected Python source or a Jupyter notebook")
    try:
        if notebook:
            text = data.decode("utf-8")  # a byte order mark stays in the text: --fix writes the file back with it
        else:
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            text = data.decode(encoding)
    except (UnicodeDecodeError, SyntaxError, LookupError) as e:
        return Unreadable(name, f"not text in the declared encoding (binary file?): {e}")
    return SourceText(name, text, notebook)


def _mb(size: int) -> str:
    return f"{size / 1024 / 1024:.1f} MB" if size >= 1024 * 1024 else f"{size} bytes"
