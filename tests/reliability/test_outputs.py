"""Items 8 and 17: output paths checked before any work; whole files or none; `--json -` is JSON alone."""

import json

import pytest
from _support import history, read_only, small_disk, workload
from test_store_media import fill

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability


@pytest.fixture
def db(tmp_path):
    db = tmp_path / "r.db"
    r = lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--no-diagnose", "--in-process", "--db", str(db))
    assert r.returncode == 0, r.stderr
    return db


def _one_line_exit_2(r):
    assert r.returncode == 2 and "Traceback" not in r.stderr, r.stderr
    assert len(r.stderr.strip().splitlines()) == 1, r.stderr


def test_output_paths_in_a_missing_directory_fail_before_any_work(tmp_path, db):
    missing = tmp_path / "no" / "such"
    for args in (["export", "-o", str(missing / "x.json")], ["report", "--html", str(missing / "r.html")],
                 ["report", "--format", "md", "-o", str(missing / "r.md")]):
        r = lb(*args, "--db", str(db))
        _one_line_exit_2(r)
        assert "does not exist" in r.stderr
    r = lb("run", "-w", workload("HANG"), "--json", str(missing / "r.json"), "--db", str(db))
    _one_line_exit_2(r)  # before the hanging workload ran: it would have timed out after 30 minutes
    assert len(history(db)) == 1  # and nothing was recorded


def test_output_paths_on_read_only_media_fail_before_any_work(tmp_path, db):
    media = tmp_path / "media"
    media.mkdir()
    with read_only(media):
        for args in (["export", "-o", str(media / "x.json")], ["report", "--html", str(media / "r.html")]):
            r = lb(*args, "--db", str(db))
            _one_line_exit_2(r)
            assert "cannot write" in r.stderr
        r = lb("run", "-w", workload("HANG"), "--json", str(media / "r.json"), "--db", str(db))
        _one_line_exit_2(r)
    assert len(history(db)) == 1


def test_a_full_disk_during_a_write_says_so_and_leaves_no_partial_file(tmp_path, db):
    with small_disk(tmp_path / "disk", "64k") as disk:
        fill(disk / "filler")
        r = lb("export", "-o", str(disk / "x.json"), "--db", str(db))
        _one_line_exit_2(r)
        assert "disk full" in r.stderr
        (disk / "filler").unlink()
        (disk / "filler").write_bytes(b"\0" * (60 * 1024 - 8192))  # room to start the file, not to finish it
        r = lb("export", "-o", str(disk / "x.json"), "--db", str(db))
        _one_line_exit_2(r)
        assert "disk full" in r.stderr and "nothing was written" in r.stderr
        assert sorted(p.name for p in disk.iterdir()) == ["filler"]


def test_run_json_to_stdout_is_json_alone_and_the_table_goes_to_stderr(tmp_path):
    r = lb("run", "-w", workload("QUICK"), "--budget", "0.1", "--no-diagnose", "--in-process", "--json", "-",
           "--db", str(tmp_path / "r.db"))
    assert r.returncode == 0, r.stderr
    doc = json.loads(r.stdout)
    assert doc["format"] == "levelbench.run" and doc["results"][0]["status"] == "ok"
    assert "ratio to a" in r.stderr


def test_an_unknown_option_says_no_such_option(tmp_path):
    for args in (["run", "-w", "matmul", "--bogus"], ["run", "-w", "matmul", "--bogus", "3"]):
        r = lb(*args, "--db", str(tmp_path / "r.db"))
        _one_line_exit_2(r)
        assert "no such option: --bogus" in r.stderr
