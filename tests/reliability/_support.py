"""What the reliability tests share: hostile workload files, a small full-able disk, read-only media,
and finding the worker processes a command left behind."""

from __future__ import annotations

import contextlib
import json
import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

FILES = Path(__file__).parent / "files"
HOSTILE = FILES / "hostile.py"


def workload(name: str) -> str:
    return f"{HOSTILE}:{name}"


def marker_env() -> dict[str, str]:
    """An environment variable every process of one command inherits, to find its workers by."""
    return {"LEVELBENCH_TEST_MARK": uuid.uuid4().hex, "PYTHONUNBUFFERED": "1"}


def marked_processes(mark: str) -> list[int]:
    """Live (not zombie) processes whose environment holds ``mark``."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/environ", "rb") as f:
                if f"LEVELBENCH_TEST_MARK={mark}".encode() not in f.read().split(b"\0"):
                    continue
            with open(f"/proc/{entry}/stat") as f:
                if f.read().rpartition(")")[2].split()[0] == "Z":
                    continue
        except OSError:
            continue
        found.append(int(entry))
    return found


def wait_for(condition, timeout: float = 60.0, every: float = 0.1):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(every)
    raise AssertionError(f"not true after {timeout} s: {condition}")


def history(db: Path) -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "levelbench", "history", "--json", "--db", str(db)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


def results_of(db: Path, run: str = "latest") -> list[dict]:
    r = subprocess.run([sys.executable, "-m", "levelbench", "export", run, "--db", str(db)],
                       capture_output=True, text=True, timeout=60)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)["results"]


def _can_mount() -> bool:
    return sys.platform.startswith("linux") and os.geteuid() == 0


@contextlib.contextmanager
def small_disk(path: Path, size: str = "2m") -> Iterator[Path]:
    """A real tmpfs of ``size`` mounted at ``path`` (needs root; skipped otherwise)."""
    if not _can_mount():
        pytest.skip("mounting a small tmpfs needs root on Linux")
    path.mkdir(parents=True, exist_ok=True)
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True,
                       text=True)
    if r.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {r.stderr.strip()}")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], capture_output=True)


@contextlib.contextmanager
def read_only(path: Path) -> Iterator[Path]:
    """``path`` (a directory, already filled) made read-only for real: a read-only bind mount as root
    (root writes through permission bits), permission bits otherwise."""
    if _can_mount():
        r = subprocess.run(["mount", "--bind", "-o", "ro", str(path), str(path)], capture_output=True, text=True)
        if r.returncode == 0:
            subprocess.run(["mount", "-o", "remount,bind,ro", str(path)], capture_output=True)
            try:
                probe = path / ".probe"
                with contextlib.suppress(OSError):
                    probe.write_text("x")
                if probe.exists():
                    pytest.skip("a read-only bind mount did not make the directory read-only here")
                yield path
            finally:
                subprocess.run(["umount", "-l", str(path)], capture_output=True)
            return
    modes = {p: p.stat().st_mode for p in [path, *path.iterdir()]}
    for p in modes:
        p.chmod(0o555 if p.is_dir() else 0o444)
    try:
        yield path
    finally:
        for p, mode in modes.items():
            p.chmod(mode)
