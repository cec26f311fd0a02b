"""Finding and reading the inputs: files, directories (recursively), and ``-`` for standard input.

Anything that cannot be read becomes an `Unreadable` with a one-line reason; the run goes on.
"""

from __future__ import annotations

import dataclasses
import fnmatch
import io
import os
import sys
import tokenize
from collections.abc import Iterable, Iterator
from pathlib import Path

from .._values.files import FileRefused, read_at_most, read_regular_file, size_text
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

    Only regular files are read, and at most ``max_bytes`` of them (`read_regular_file`): a FIFO or a
    device (``/dev/zero``) would block or never end.
    """
    name = str(path)
    try:
        data = read_regular_file(path, max_bytes)
    except FileRefused as e:
        why = str(e)
        if why.startswith("not a regular file"):
            return Unreadable(name, f"{why}: the doctor reads Python files and Jupyter notebooks")
        return Unreadable(name, f"{why} (raise it with --max-bytes)")
    except OSError as e:
        return Unreadable(name, f"cannot read: {e.strerror or e}")
    return _decode(name, data, notebook=path.suffix == ".ipynb")


def _read_stdin(name: str, max_bytes: int) -> SourceText | Unreadable:
    try:
        data = read_at_most(sys.stdin.buffer, max_bytes + 1)
    except (OSError, ValueError, AttributeError) as e:
        return Unreadable(name, f"cannot read standard input: {e}")
    if len(data) > max_bytes:
        return Unreadable(name, f"standard input is over the {size_text(max_bytes)} limit (raise it with --max-bytes)")
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
