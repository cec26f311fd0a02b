"""Items 4 and 16: many first opens at once, read-only media, a full disk."""

import contextlib
import shutil

import pytest
from _support import history, read_only, small_disk, workload
from test_store_concurrency import test_forty_processes_creating_one_new_database_at_once_all_open_it  # noqa: F401

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability
# Item 4 (concurrent first opens of a new database, 40 processes) was fixed on main with the test
# imported above; importing it makes `pytest -m reliability` run it too.


@pytest.fixture
def recorded(tmp_path):
    db = tmp_path / "made" / "r.db"
    for _ in range(2):
        r = lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--no-diagnose", "--in-process", "--db", str(db))
        assert r.returncode == 0, r.stderr
    return db


def test_a_database_on_read_only_media_is_read_by_history_diff_report_and_export(tmp_path, recorded):
    media = tmp_path / "media"
    media.mkdir()
    shutil.copy(recorded, media / "r.db")
    with read_only(media):
        db = str(media / "r.db")
        assert [r["status"] for r in history(media / "r.db")] == ["ok", "ok"]
        for args in (["diff"], ["report", "--format", "md"], ["export"], ["export", "--format", "csv"]):
            r = lb(*args, "--db", db)
            assert r.returncode == 0 and "Traceback" not in r.stderr, (args, r.stderr)
        r = lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--db", db)
        assert r.returncode == 2 and "read-only" in r.stderr and "Traceback" not in r.stderr
        assert len(r.stderr.strip().splitlines()) == 1


def test_a_new_database_on_a_full_disk_says_disk_full(tmp_path):
    with small_disk(tmp_path / "disk", "256k") as disk:
        fill(disk / "filler")
        r = lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--db", str(disk / "r.db"))
        assert r.returncode == 2 and "disk full" in r.stderr and "Traceback" not in r.stderr, r.stderr


def fill(path):
    with contextlib.suppress(OSError), open(path, "wb", buffering=0) as f:
        while True:
            f.write(b"\0" * 4096)


@pytest.mark.parametrize("command", [["history"], ["diff"], ["export"],
                                     ["run", "-w", workload("QUICK"), "--budget", "0.1", "--in-process"]])
def test_a_device_as_the_database_is_named_as_one_not_as_a_full_disk(tmp_path, command):
    # Before: LEVELBENCH_DB=/dev/null gave "disk full: ... could not be written (disk I/O error): free some
    # space", for a command that only reads too.
    r = lb(*command, env={"LEVELBENCH_DB": "/dev/null"}, cwd=tmp_path)
    assert r.returncode == 2, r.stderr
    line = r.stderr.strip().splitlines()[-1]
    assert "disk full" not in r.stderr and "Traceback" not in r.stderr
    assert line.endswith("expected a levelbench results database, got a character device at /dev/null, not a file "
                         "(a database needs a regular file): pass --db with a file path"), line


def test_a_named_pipe_as_the_database_is_refused_at_once(tmp_path):
    import os

    fifo = tmp_path / "r.db"
    os.mkfifo(fifo)
    r = lb("history", "--db", str(fifo), timeout=60)  # opening a FIFO to read it would block for ever
    assert r.returncode == 2 and "got a named pipe (FIFO) at" in r.stderr, r.stderr
