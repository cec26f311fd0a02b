"""Runs exported for pytest-benchmark and pyperf, read by those tools' own compare commands, and
pytest-benchmark JSON imported into the store (``levelbench export --format``, ``levelbench import``)."""

from __future__ import annotations

import json
import math
import re
import statistics
import subprocess
import sys

import pytest
from test_store_fakes import record, result

from conftest import levelbench_cli as _cli
from levelbench.store import export_pytest_benchmark, open_store

MS = 1e-3
pytest_benchmark_stats = pytest.importorskip("pytest_benchmark.stats")
pyperf = pytest.importorskip("pyperf")


def _same_stats(ours: dict, theirs: dict) -> bool:
    """pytest-benchmark's statistics equal (numbers to rounding, the outlier counts exactly)."""
    assert set(theirs) <= set(ours), sorted(set(theirs) - set(ours))
    for k, v in theirs.items():
        if isinstance(v, (int, float)):
            assert ours[k] == pytest.approx(v, rel=1e-12, abs=1e-15), k
        else:
            assert ours[k] == v, k
    return True


def _tool(*args: str, cwd=None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", *args], capture_output=True, text=True, cwd=cwd, timeout=120)


@pytest.fixture
def two_runs(tmp_path):
    """A store with two runs of one workload; in the second, candidate `slowed` takes twice as long."""
    db = str(tmp_path / "r.db")
    with open_store(db) as s:
        record(s, [result("w", {"steady": ("numpy", MS), "slowed": ("numpy", MS)}, params={"n": 8}, seed=1)])
        record(s, [result("w", {"steady": ("numpy", MS), "slowed": ("numpy", 2 * MS)}, params={"n": 8}, seed=2)])
    return db


@pytest.mark.parametrize("n", [1, 2, 7, 8, 9, 10, 41])
def test_exported_statistics_are_pytest_benchmarks_own(n, tmp_path):
    db = str(tmp_path / "r.db")
    with open_store(db) as s:
        run = s.run(record(s, [result("w", {"a": ("numpy", MS)}, n=n, spread=0.3, seed=n)]))
    (bench,) = json.loads(export_pytest_benchmark(run))["benchmarks"]
    theirs = pytest_benchmark_stats.Stats()
    for x in run.results[0].comparison.measurements["a"].samples:
        theirs.update(x)
    assert _same_stats(bench["stats"], theirs.as_dict())
    assert bench["stats"]["iterations"] == 10 and bench["stats"]["data"] == theirs.data


def test_pytest_benchmark_compare_reads_two_exported_runs(two_runs, tmp_path):
    for ref, name in (("1", "0001_before.json"), ("latest", "0002_after.json")):
        p = _cli("export", ref, "--format", "pytest-benchmark", "-o", str(tmp_path / name), "--db", two_runs)
        assert p.returncode == 0, p.stderr
    p = _tool("pytest_benchmark", "compare", "--columns=median,rounds", "--group-by=fullname",
              str(tmp_path / "0001_before.json"), str(tmp_path / "0002_after.json"))
    assert p.returncode == 0, p.stderr
    rows = [line.split() for line in p.stdout.splitlines() if line.startswith(("steady", "slowed"))]
    # each benchmark of each file, its source named as `pytest-benchmark compare` names it ("(0/0001_before)")
    medians = {(r[0], r[1].rstrip(")").rsplit("/", 1)[-1].lstrip("(")): float(r[2].replace(",", "")) for r in rows}
    assert sorted(medians) == [("slowed", "0001_before"), ("slowed", "0002_after"),
                               ("steady", "0001_before"), ("steady", "0002_after")]
    assert 1.9 < medians["slowed", "0002_after"] / medians["slowed", "0001_before"] < 2.1
    assert "benchmark 'w[n=8]::slowed': 2 tests" in p.stdout


def test_pyperf_compare_to_reads_two_exported_runs(two_runs, tmp_path):
    before, after = tmp_path / "before.json", tmp_path / "after.json"
    for ref, path in (("1", before), ("2", after)):
        p = _cli("export", ref, "--format", "pyperf", "-o", str(path), "--db", two_runs)
        assert p.returncode == 0, p.stderr
    suite = pyperf.BenchmarkSuite.load(str(after))
    bench = suite.get_benchmark("w[n=8]::slowed")
    with open_store(two_runs) as s:
        m = s.run(2).results[0].comparison.measurements["slowed"]
    # 40 samples of 10 calls: 5 values, each the mean of 8 consecutive samples, over 80 loops
    assert bench.get_values() == tuple(statistics.fmean(m.samples[i:i + 8]) for i in range(0, 40, 8))
    assert bench.get_loops() == 80 and bench.get_unit() == "second"
    assert bench.mean() == pytest.approx(statistics.fmean(m.samples), rel=1e-12)
    assert bench.get_metadata()["framework"] == "numpy" and bench.get_metadata()["levelbench_samples"] == 40

    p = _tool("pyperf", "compare_to", str(before), str(after), "--table")
    assert p.returncode == 0, p.stderr
    slowed = next(line for line in p.stdout.splitlines() if "w[n=8]::slowed" in line)
    assert "2.0" in slowed and "slower" in slowed, p.stdout
    assert "w[n=8]::steady" in p.stdout  # shown, or named among the not significant ones


@pytest.mark.parametrize("n_before, n_after", [(70, 60), (5, 123), (41, 9)])
def test_pyperf_compare_to_tests_significance_whatever_the_sample_counts(n_before, n_after, tmp_path):
    """Defect 14: pyperf's t-test needs equal value counts; levelbench's runs rarely have equal sample counts."""
    db = str(tmp_path / "r.db")
    with open_store(db) as s:
        record(s, [result("w", {"steady": ("numpy", MS), "slowed": ("numpy", MS)}, params={"n": 8}, seed=1,
                          n=n_before)])
        record(s, [result("w", {"steady": ("numpy", MS), "slowed": ("numpy", 1.5 * MS)}, params={"n": 8}, seed=2,
                          n=n_after)])
    paths = [str(tmp_path / f"{ref}.json") for ref in ("1", "2")]
    for ref, path in zip(("1", "2"), paths):
        assert _cli("export", ref, "--format", "pyperf", "-o", path, "--db", db).returncode == 0
    before, after = (pyperf.BenchmarkSuite.load(p).get_benchmark("w[n=8]::slowed") for p in paths)
    assert len(before.get_values()) == len(after.get_values()) == 5
    # every value is the mean per call of the samples it stands for: the total time is the samples' total
    with open_store(db) as s:
        m = s.run(2).results[0].comparison.measurements["slowed"]
    raw = [v * run.get_loops() for run in after.get_runs() for v in run.values]
    assert math.fsum(raw) == pytest.approx(math.fsum(m.samples) * m.calls_per_sample, rel=1e-12)
    assert sum(run.get_loops() for run in after.get_runs()) == n_after * m.calls_per_sample
    assert after.get_total_duration() == pytest.approx(math.fsum(m.samples) * m.calls_per_sample, rel=1e-12)

    p = _tool("pyperf", "compare_to", "-v", *paths)
    assert p.returncode == 0, p.stderr
    assert "ERROR when testing" not in p.stdout, p.stdout
    steady, slowed = p.stdout[:p.stdout.index("w[n=8]::slowed")], p.stdout[p.stdout.index("w[n=8]::slowed"):]
    assert "Significant (t=" in slowed and 1.4 < float(re.search(r"([\d.]+)x slower", slowed)[1]) < 1.6, p.stdout
    assert "w[n=8]::steady" in steady and "Not significant!" in steady, p.stdout


def test_import_reads_real_pytest_benchmark_json_and_exports_it_back(tmp_path):
    (tmp_path / "test_b.py").write_text(
        "import pytest\n\n"
        "@pytest.mark.parametrize('n', [10, 1000])\n"
        "def test_sum(benchmark, n):\n    benchmark(sum, range(n))\n")
    out = tmp_path / "bench.json"
    p = _tool("pytest", "-q", "-p", "no:levelbench", "-p", "no:cacheprovider", str(tmp_path / "test_b.py"),
              f"--benchmark-json={out}", "--benchmark-max-time=0.02", "--benchmark-min-rounds=5", cwd=tmp_path)
    assert p.returncode == 0, p.stdout + p.stderr
    db = str(tmp_path / "r.db")
    p = _cli("import", str(out), "--db", db)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == f"{out}: 2 benchmark(s) recorded as run 1"

    original = json.loads(out.read_text())
    with open_store(db) as s:
        run = s.run(1)
    assert (run.kind, run.label, run.status) == ("pytest-benchmark", "imported from bench.json", "ok")
    assert [(r.workload, r.params) for r in run.results] == [("test_b.py::test_sum[10]", {"n": 10}),
                                                             ("test_b.py::test_sum[1000]", {"n": 1000})]
    for r, b in zip(run.results, original["benchmarks"]):
        m = r.comparison.measurements[b["name"]]
        assert list(m.samples) == b["stats"]["data"] and m.calls_per_sample == b["stats"]["iterations"]
    assert run.environment["hostname"] == original["machine_info"]["node"]

    back = tmp_path / "back.json"
    assert _cli("export", "--format", "pytest-benchmark", "-o", str(back), "--db", db).returncode == 0
    exported = json.loads(back.read_text())["benchmarks"]
    assert [(b["fullname"], b["name"]) for b in exported] == [(b["fullname"], b["name"]) for b in original["benchmarks"]]
    for a, b in zip(exported, original["benchmarks"]):
        assert _same_stats(a["stats"], b["stats"])
    p = _tool("pytest_benchmark", "compare", "--columns=min,median", str(out), str(back))
    assert p.returncode == 0 and p.stdout.count("test_sum[1000]") == 2, p.stdout + p.stderr


def test_two_imports_diff_with_no_runs_named(tmp_path):
    doc = {"benchmarks": [{"name": "test_x", "fullname": "t.py::test_x", "params": None, "group": None,
                           "stats": {"data": [1e-3 * (1 + 0.01 * (i % 7)) for i in range(40)], "iterations": 4}}],
           "machine_info": {"node": "ci-1"}, "commit_info": {"id": "0123456789abcdef", "dirty": True},
           "datetime": "2026-01-02T03:04:05+00:00", "version": "5.1.0"}
    (tmp_path / "a.json").write_text(json.dumps(doc))
    doc["benchmarks"][0]["stats"]["data"] = [2 * x for x in doc["benchmarks"][0]["stats"]["data"]]
    (tmp_path / "b.json").write_text(json.dumps(doc))
    db = str(tmp_path / "r.db")
    p = _cli("import", str(tmp_path / "a.json"), str(tmp_path / "b.json"), "--db", db)
    assert p.returncode == 0, p.stderr
    assert p.stdout.splitlines()[1] == f"{tmp_path / 'b.json'}: 1 benchmark(s) recorded as run 2, commit 0123456789ab+dirty"
    p = _cli("diff", "--db", db, "--fail-on-regression")
    assert p.returncode == 1
    assert p.stdout.splitlines()[0].startswith("run 1 (2026-01-02") and "regression" in p.stdout


def test_importing_files_is_a_library_call_that_says_what_became_of_each(tmp_path):
    """`levelbench.store.import_files` is ``levelbench import`` without the command line."""
    from levelbench.store import NotPytestBenchmark, import_files, open_store

    doc = {"benchmarks": [{"name": "test_x", "fullname": "t.py::test_x", "params": None, "group": None,
                           "stats": {"data": [1e-3, 1.1e-3, 1.2e-3], "iterations": 1}}],
           "machine_info": {"node": "ci-1"}, "commit_info": {"id": "0123456789abcdef", "dirty": False}}
    (tmp_path / "a.json").write_text(json.dumps(doc))
    (tmp_path / "copy.json").write_text(json.dumps(doc))
    db = tmp_path / "r.db"
    with pytest.raises(NotPytestBenchmark, match="expected a readable pytest-benchmark JSON file, got .*missing.json"):
        import_files([tmp_path / "a.json", tmp_path / "missing.json"], db)
    assert not db.exists()  # a bad file: nothing recorded, not even the files before it
    seen = []
    done = import_files([tmp_path / "a.json", tmp_path / "copy.json", tmp_path / "a.json"], db, on_file=seen.append)
    assert seen == done
    assert [(i.run_id, i.not_again) for i in done] == [
        (1, ""), (1, f"the same file as {tmp_path / 'a.json'}"), (1, "given again")]
    assert (done[0].benchmarks, done[0].git_commit, done[0].dated) == (1, "0123456789ab", False)
    assert [(i.run_id, i.not_again) for i in import_files([tmp_path / "copy.json"], db)] == [(1, "already imported")]
    with open_store(db) as store:
        assert len(store.runs()) == 1


@pytest.mark.parametrize("content, message", [
    ("not json {", "expected a pytest-benchmark JSON file, got text that is not JSON in *"),
    ('{"results": []}', "expected a pytest-benchmark JSON file (written by pytest --benchmark-json=PATH or "
                        "--benchmark-autosave) with a 'benchmarks' list, got a JSON object with keys ['results'] in *"),
    ('{"format": "levelbench.run", "results": []}', "*got a levelbench run export (levelbench export --format json)*"),
    ('{"benchmarks": [{"name": "test_x", "stats": {"median": 0.001, "iterations": 1}}]}',
     "expected the raw timings of 'test_x' (benchmark 0 of *) in stats.data, got none: pytest-benchmark keeps them "
     "with --benchmark-json=PATH, or with --benchmark-save-data*"),
])
def test_import_refuses_what_it_cannot_read_and_records_nothing(tmp_path, content, message):
    good = tmp_path / "good.json"
    good.write_text(json.dumps({"benchmarks": [{"name": "t", "stats": {"data": [1e-3, 2e-3], "iterations": 1}}]}))
    bad = tmp_path / "bad.json"
    bad.write_text(content)
    db = tmp_path / "r.db"
    p = _cli("import", str(good), str(bad), "--db", str(db))
    assert p.returncode == 2 and p.stdout == ""
    line = p.stderr.strip()
    assert line.startswith("levelbench import: ") and "\n" not in line, line
    at = len("levelbench import: ")
    for part in message.split("*"):  # the message's parts in order; '*' stands for a path
        assert line.find(part, at) >= 0, (part, line)
        at = line.find(part, at) + len(part)
    assert not db.exists()  # the good file was not recorded either: all or nothing
