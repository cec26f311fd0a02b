"""Defects 16, 20, 22, 30 and 37 of the 2026-12-02 probe: hostile or damaged files given to
``levelbench import`` (a FIFO, a device, JSON nested 100,000 deep, a million raw timings, bad values, the
same file twice), and the mode of the files ``levelbench export -o`` writes."""

from __future__ import annotations

import json
import os
import resource
import stat
import subprocess
import sys
import time

import pytest
from _support import history

from conftest import levelbench_cli as lb

pytestmark = pytest.mark.reliability


def _doc(data=None, iterations=4, when="2026-01-02T03:04:05+00:00", params=None) -> dict:
    doc = {"benchmarks": [{"name": "test_x", "fullname": "t.py::test_x", "params": params, "group": None,
                           "stats": {"data": [1e-3 * (1 + 0.01 * (i % 7)) for i in range(20)] if data is None else data,
                                     "iterations": iterations}}],
           "machine_info": {"node": "ci-1"}, "commit_info": {"id": "0123456789abcdef", "dirty": False},
           "datetime": when, "version": "5.1.0"}
    if when is None:
        del doc["datetime"]
    return doc


def _write(path, doc) -> str:
    path.write_text(json.dumps(doc))
    return str(path)


def _refused(r, *says: str) -> None:
    """Exit 2, one line on stderr holding every part of ``says``, nothing on stdout, no traceback."""
    assert r.returncode == 2 and r.stdout == "", r.stdout + r.stderr
    line = r.stderr.strip()
    assert line.startswith("levelbench import: ") and "\n" not in line, r.stderr
    for part in says:
        assert part in line, (part, line)


# -- defect 20: FIFOs and devices, and the size read ------------------------------------------------
def test_import_of_a_fifo_or_a_device_is_refused_at_once_not_read(tmp_path):
    fifo = tmp_path / "f.json"
    os.mkfifo(fifo)
    db = tmp_path / "x.db"
    for path, kind in ((fifo, "not a regular file but a named pipe (FIFO)"),
                       ("/dev/zero", "not a regular file but a character device")):
        r = lb("import", str(path), "--db", str(db), timeout=30)  # blocked forever before the fix
        _refused(r, f"got {path}: {kind}: only a file is read")
    assert not db.exists()


def test_import_refuses_a_file_over_max_bytes_before_reading_it(tmp_path):
    path = _write(tmp_path / "big.json", _doc())
    size = os.path.getsize(path)
    r = lb("import", path, "--max-bytes", str(size - 1), "--db", str(tmp_path / "x.db"))
    _refused(r, f"file is {size} bytes, over the {size - 1} bytes limit (raise it with --max-bytes)")
    assert lb("import", path, "--max-bytes", str(size), "--db", str(tmp_path / "x.db")).returncode == 0


# -- defect 22: deep nesting ---------------------------------------------------------------------------
@pytest.mark.parametrize("text", [
    '{"benchmarks": ' + "[" * 100_000 + "]" * 100_000 + "}",
    json.dumps(_doc(params={"n": json.loads("[" * 500 + "]" * 500)})),  # parses, but deeper than any real file
])
def test_import_of_deeply_nested_json_is_one_line_and_exit_2(tmp_path, text):
    (tmp_path / "d.json").write_text(text)
    r = lb("import", str(tmp_path / "d.json"), "--db", str(tmp_path / "x.db"))
    _refused(r, "expected a pytest-benchmark JSON file, got JSON nested more than 64 levels deep in ")
    assert not (tmp_path / "x.db").exists()


# -- defect 16: memory bounded whatever the number of raw timings, nothing recorded on a failure --------
_THREADS = {"OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1"}  # the same address space in both processes


def _address_space_of_the_cli() -> int:
    """Bytes of address space a process holds once it has imported what `levelbench import` imports."""
    r = subprocess.run([sys.executable, "-c", "import levelbench._cli.main, levelbench.store._pytest_benchmark, "
                        "levelbench.store._store\nprint(next(int(l.split()[1]) * 1024 for l in "
                        "open('/proc/self/status') if l.startswith('VmSize:')))"],
                       capture_output=True, text=True, timeout=120, env={**os.environ, **_THREADS})
    assert r.returncode == 0, r.stderr
    return int(r.stdout)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_import_of_100000_raw_timings_needs_less_than_512_mb_more_than_the_cli_itself(tmp_path):
    # Before the fix, one bootstrap of (2000 x 100,000) took 1.6 GB per array: a MemoryError and a failed empty run.
    path = _write(tmp_path / "s.json", _doc(data=[1e-6 * (1 + (i % 97) / 100) for i in range(100_000)]))
    db = tmp_path / "s.db"
    limit = _address_space_of_the_cli() + 512 * 2**20
    r = subprocess.run([sys.executable, "-m", "levelbench", "import", path, "--db", str(db)], capture_output=True,
                       text=True, timeout=120, env={**os.environ, **_THREADS},
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert r.returncode == 0, r.stderr[-2000:]
    assert r.stdout.strip() == f"{path}: 1 benchmark(s) recorded as run 1, commit 0123456789ab"
    (run,) = history(db)
    assert run["status"] == "ok"


@pytest.mark.slow
@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="reads /proc/self/status")
def test_import_of_a_million_raw_timings_as_probed_needs_less_than_1_gb_more(tmp_path):
    # The probe's file: 24 GB and an OOM kill before the fix.
    path = _write(tmp_path / "s.json", _doc(data=[1e-6 * (1 + (i % 97) / 100) for i in range(1_000_000)]))
    limit = _address_space_of_the_cli() + 2**30
    r = subprocess.run([sys.executable, "-m", "levelbench", "import", path, "--db", str(tmp_path / "s.db")],
                       capture_output=True, text=True, timeout=300, env={**os.environ, **_THREADS},
                       preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_AS, (limit, limit)))
    assert r.returncode == 0, r.stderr[-2000:]


def test_a_file_that_cannot_be_converted_records_nothing_not_even_the_files_before_it(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from levelbench._cli.import_ import import_command
    from levelbench._results.workload import WorkloadResult

    good = _write(tmp_path / "good.json", _doc())
    big = _write(tmp_path / "big.json", _doc(data=[1e-3] * 50))
    to_dict = WorkloadResult.to_dict

    def out_of_memory(self):
        if len(self.comparison.measurements["test_x"].samples) == 50:
            raise MemoryError
        return to_dict(self)

    monkeypatch.setattr(WorkloadResult, "to_dict", out_of_memory)
    db = tmp_path / "x.db"
    r = CliRunner().invoke(import_command, [good, big, "--db", str(db)])
    assert r.exit_code == 2, r.output
    assert f"not enough memory to read and convert {big}; nothing was recorded" in r.output
    assert not db.exists()  # before the fix: good.json recorded, then a `failed` empty run for big.json


# -- defect 30: bad values are refused, naming the value; the same file twice is recorded once -------
@pytest.mark.parametrize("doc, says", [
    (_doc(iterations=0), "expected stats.iterations of 'test_x' (benchmark 0 of *) to be the calls per round, "
                         "a whole number >= 1, got 0: "),
    (_doc(iterations="many"), "to be the calls per round, a whole number >= 1, got 'many'"),
    (_doc(iterations=2.5), "a whole number >= 1, got 2.5"),
    (_doc(iterations=True), "a whole number >= 1, got True"),
    (_doc(when="not a date"), "expected 'datetime' in * to be the time of the run in ISO 8601, like "
                              "2026-12-02T04:05:06.789012+00:00 (pytest-benchmark writes it so), got 'not a date'"),
    (_doc(when=1700000000), "got 1700000000"),
    (_doc(data=[1e-3, -1e-3, 1e-3]), "expected the raw timings of 'test_x' (benchmark 0 of *) in stats.data to be "
                                     "times in seconds, each a finite number >= 0, got -0.001 at position 1 of 3: "
                                     "pytest-benchmark never writes that, so the file was edited or damaged"),
    (_doc(data=[1e-3, float("nan")]), "each a finite number >= 0, got nan at position 1 of 2"),
    (_doc(data=[float("inf")]), "got inf at position 0 of 1"),
    (_doc(data=[1e-3, "fast"]), "got 'fast' at position 1 of 2"),
    (_doc(data=[10 ** 400]), "at position 0 of 1"),
])
def test_import_refuses_bad_values_naming_them_and_records_nothing(tmp_path, doc, says):
    path = _write(tmp_path / "bad.json", doc)
    db = tmp_path / "x.db"
    r = lb("import", path, "--db", str(db))
    _refused(r, says.replace("*", path))
    assert "--benchmark-save-data" not in r.stderr  # the hint for missing timings is for missing timings only
    assert not db.exists()


def test_a_datetime_without_a_zone_is_utc_as_pytest_benchmark_wrote_it_and_none_is_the_time_of_import(tmp_path):
    db = tmp_path / "x.db"
    r = lb("import", _write(tmp_path / "naive.json", _doc(when="2026-01-02T03:04:05.5")),
           _write(tmp_path / "none.json", _doc(when=None, data=[2e-3] * 5)), "--db", str(db),
           env={"TZ": "America/New_York"})
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines()[1].endswith("recorded as run 2, commit 0123456789ab, dated now (the file has no "
                                             "datetime)")
    naive, undated = history(db)
    assert naive["started"] == 1767323045.5  # 2026-01-02T03:04:05.5Z
    assert abs(undated["started"] - time.time()) < 600


def test_the_same_file_imported_twice_is_recorded_once(tmp_path):
    path = _write(tmp_path / "valid.json", _doc())
    db = str(tmp_path / "x.db")
    r = lb("import", path, path, "--db", db)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [f"{path}: 1 benchmark(s) recorded as run 1, commit 0123456789ab",
                                     f"{path}: given again, recorded as run 1: not recorded again"]
    copy = tmp_path / "copy.json"
    copy.write_bytes((tmp_path / "valid.json").read_bytes())
    r = lb("import", str(copy), "--db", db, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == f"{copy}: already imported as run 1: not recorded again"
    assert [run["id"] for run in history(tmp_path / "x.db")] == [1]
    # other bytes are another file, even with the same benchmarks
    other = _write(tmp_path / "other.json", _doc(data=[2e-3] * 20))
    assert "recorded as run 2" in lb("import", other, "--db", db).stdout


def test_a_file_imported_by_an_older_levelbench_is_known_as_merge_knows_it(tmp_path):
    from levelbench.store import load_pytest_benchmark, open_store

    path = _write(tmp_path / "valid.json", _doc())
    run, results = load_pytest_benchmark(path)
    run["environment"] = {k: v for k, v in run["environment"].items() if k != "imported"}  # no digest, as before
    with open_store(tmp_path / "x.db") as store:
        store.end_run(store.begin_run(**run), "ok")
    r = lb("import", path, "--db", str(tmp_path / "x.db"))
    assert r.stdout.strip() == f"{path}: already imported as run 1: not recorded again", r.stdout + r.stderr


# -- defect 37: files written by export -o get the mode the umask gives --------------------------------
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o027, 0o640)])
def test_export_o_writes_a_new_file_with_the_mode_the_umask_gives(tmp_path, umask, mode):
    db = str(tmp_path / "x.db")
    assert lb("import", _write(tmp_path / "valid.json", _doc()), "--db", db).returncode == 0
    for fmt in ("json", "pyperf"):
        out = tmp_path / f"run.{fmt}"
        r = subprocess.run([sys.executable, "-m", "levelbench", "export", "--format", fmt, "-o", str(out), "--db", db],
                           capture_output=True, text=True, timeout=120, preexec_fn=lambda: os.umask(umask))
        assert r.returncode == 0, r.stderr
        assert stat.S_IMODE(out.stat().st_mode) == mode, (fmt, oct(out.stat().st_mode))  # was 0o600 (mkstemp)


def test_export_o_over_an_existing_file_keeps_that_files_mode(tmp_path):
    db = str(tmp_path / "x.db")
    assert lb("import", _write(tmp_path / "valid.json", _doc()), "--db", db).returncode == 0
    out = tmp_path / "run.csv"
    out.write_text("old\n")
    out.chmod(0o664)
    r = lb("export", "--format", "csv", "-o", str(out), "--db", db)
    assert r.returncode == 0, r.stderr
    assert out.read_text().startswith("run_id,") and stat.S_IMODE(out.stat().st_mode) == 0o664  # was 0o600
