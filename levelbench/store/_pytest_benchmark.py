"""pytest-benchmark's JSON: a recorded run written as it (``pytest-benchmark compare`` reads it), and
its files read back into the store (``levelbench import``).

pytest-benchmark keeps, per benchmark, the per-call time of every round (``stats.data``, each the
mean of ``stats.iterations`` calls) and statistics derived from them; levelbench keeps the same
thing per candidate (``samples``, each the mean of ``calls_per_sample`` calls). So a candidate is
one benchmark, with the same numbers in both, and the statistics are computed the way
pytest-benchmark computes them (``pytest_benchmark.stats.Stats``), so both tools print the same.

What pytest-benchmark does not measure is not made up on import: the first call and compilation
are recorded as 0, and a file without raw timings (saved without ``--benchmark-save-data``) is
refused, since diffs need the samples. Nor is a bad value mended: a negative timing, 0 iterations
or a datetime that is not one refuse the file, with the value named.
"""

from __future__ import annotations

import bisect
import dataclasses
import datetime
import hashlib
import json
import math
import reprlib
import statistics
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .._results.workload import WorkloadResult
from .._values.files import FileRefused, read_regular_file
from ._records import RUN_OK, Run, params_text, stopped_by
from ._store import open_store

if TYPE_CHECKING:
    from ._store import Store

# The version of pytest-benchmark whose file layout this writes; its `compare` reads files of any 4.x/5.x.
FORMAT_VERSION = "5.1.0"
IMPORTED_KIND = "pytest-benchmark"


class NotPytestBenchmark(ValueError):
    """The file is not a pytest-benchmark JSON file levelbench can import: what was expected, got, and the fix."""


# -- export ------------------------------------------------------------------------------------
def export_pytest_benchmark(run: Run) -> str:
    """``run`` as a pytest-benchmark JSON file: one benchmark per candidate of each result.

    A benchmark's ``name`` is the candidate and its ``fullname`` the result (workload and
    parameters) and the candidate (``gru[seq=25]::jax_scan``); the candidates of one comparison
    share a ``group``, so ``pytest-benchmark compare A.json B.json`` shows them in one table. A
    one-candidate result named after its candidate (a pytest test's ``measure``, an imported
    benchmark) keeps its name as ``fullname``, so an imported file exports as it came.
    """
    benchmarks = []
    for r in run.results:
        if r.comparison is None:
            continue
        result = f"{r.workload}[{params_text(r.params)}]" if r.params else r.workload
        several = len(r.comparison.measurements) > 1
        for name, m in r.comparison.measurements.items():
            own = not several and (r.workload == name or r.workload.endswith(f"::{name}"))
            benchmarks.append({
                "group": result if several else None,
                "name": name,
                "fullname": r.workload if own else f"{result}::{name}",
                "params": dict(r.params) or None,
                "param": params_text(r.params) or None,
                "extra_info": {"framework": m.framework, "levelbench_run": run.id,
                               "first_call": m.first_call, "compile_time": m.compile_time},
                "options": {"disable_gc": True, "timer": "perf_counter", "min_rounds": None, "max_time": None,
                            "min_time": None, "precision": None, "confidence": m.confidence, "warmup": False},
                "stats": {**stats(m.samples), "iterations": m.calls_per_sample},
            })
    doc = {
        "machine_info": _machine_info(run.environment or _first_environment(run)),
        "commit_info": _commit_info(run.git_commit),
        "benchmarks": benchmarks,
        "datetime": datetime.datetime.fromtimestamp(run.started, datetime.timezone.utc).isoformat(),
        "version": FORMAT_VERSION,
    }
    return json.dumps(doc, indent=4, default=str)


def stats(data: Sequence[float]) -> dict[str, Any]:
    """pytest-benchmark's statistics of per-call times, computed as ``pytest_benchmark.stats.Stats`` does."""
    xs = sorted(data)
    n = len(xs)
    mean = statistics.mean(xs)
    stddev = statistics.stdev(xs) if n > 1 else 0.0
    q1, q3 = _quartiles(xs)
    iqr = q3 - q1
    total = sum(data)
    return {
        "min": xs[0], "max": xs[-1], "mean": mean, "stddev": stddev, "rounds": n, "median": statistics.median(xs),
        "iqr": iqr, "q1": q1, "q3": q3,
        "iqr_outliers": sum(x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr for x in xs),
        "stddev_outliers": sum(x < mean - stddev or x > mean + stddev for x in xs),
        "outliers": f"{sum(x < mean - stddev or x > mean + stddev for x in xs)};"
                    f"{sum(x < q1 - 1.5 * iqr or x > q3 + 1.5 * iqr for x in xs)}",
        "ld15iqr": xs[0] if n == 1 else xs[bisect.bisect_left(xs, q1 - 1.5 * iqr)],
        "hd15iqr": xs[0] if n == 1 else xs[bisect.bisect_right(xs, q3 + 1.5 * iqr) - 1],
        "ops": n / total if total else 0,
        "total": total,
        "data": list(data),
    }


def _quartiles(xs: list[float]) -> tuple[float, float]:
    """Q1 and Q3 by pytest-benchmark's rule (Wikipedia's method 3 for odd counts, method 2 for even)."""
    n = len(xs)
    if n == 1:
        return xs[0], xs[0]
    if n % 2 == 0:
        return statistics.median(xs[: n // 2]), statistics.median(xs[n // 2:])
    k, q = n // 4, n % 4
    if q == 1:
        return 0.25 * xs[k - 1] + 0.75 * xs[k], 0.75 * xs[3 * k] + 0.25 * xs[3 * k + 1]
    return 0.75 * xs[k] + 0.25 * xs[k + 1], 0.25 * xs[3 * k + 1] + 0.75 * xs[3 * k + 2]


def _machine_info(env: Mapping[str, Any]) -> dict[str, Any]:
    return {
        "node": env.get("hostname", ""),
        "processor": env.get("machine", ""),
        "machine": env.get("machine", ""),
        "python_implementation": env.get("implementation", ""),
        "python_version": env.get("python", ""),
        "system": env.get("system", str(env.get("platform", "")).split("-")[0]),
        "release": env.get("release", ""),
        "cpu": {"brand_raw": env.get("cpu", ""), "count": env.get("cpu_count", 0)},
        "levelbench": {k: env[k] for k in ("packages", "affinity") if k in env},
    }


def _commit_info(commit: str | None) -> dict[str, Any]:
    if not commit:
        return {"id": "unversioned", "time": None, "author_time": None, "dirty": False, "project": "", "branch": ""}
    return {"id": commit.removesuffix("+dirty"), "time": None, "author_time": None, "dirty": commit.endswith("+dirty"),
            "project": "", "branch": ""}


def _first_environment(run: Run) -> dict[str, Any]:
    return next((r.comparison.environment for r in run.results if r.comparison), {})


# -- import ------------------------------------------------------------------------------------
# The largest file `levelbench import` reads unless told otherwise (--max-bytes), refused before it is read:
# 7 to 14 million raw timings (7 to 14 bytes each as JSON). Memory grows with the file: 100 MB of timings took
# 37 s and 1.5 GB (peak RSS), 14 MB (a million) 4 s and 250 MB.
MAX_IMPORT_BYTES = 100 * 1024 * 1024
# pytest-benchmark's files nest 4 levels (benchmarks -> benchmark -> stats -> data); a test's params a few more.
# Deeper JSON is refused: the store writes what it imports back as JSON, which recurses once per level.
MAX_DEPTH = 64
_BRIEF = reprlib.Repr()
_BRIEF.maxstring, _BRIEF.maxother, _BRIEF.maxlevel = 40, 40, 2


def read_pytest_benchmark(doc: Any, source: str) -> tuple[dict[str, Any], list[WorkloadResult]]:
    """The run (``begin_run`` keywords) and results in a pytest-benchmark JSON document.

    Each benchmark becomes one result named by its ``fullname`` (``tests/test_x.py::test_sum[10]``),
    with its ``params``, holding one candidate named by its ``name``. Every value levelbench uses is
    checked: the raw timings (``stats.data``, finite and >= 0), the calls per round
    (``stats.iterations``, a whole number >= 1; 1 when absent) and the time of the run (``datetime``,
    ISO 8601, UTC when it names no zone as pytest-benchmark before 4.0 wrote it; the time of import when
    absent). Raises `NotPytestBenchmark`, naming the value, the benchmark and the fix.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        got = f"a JSON object with keys {sorted(doc)[:8]}" if isinstance(doc, dict) else f"a JSON {type(doc).__name__}"
        if isinstance(doc, dict) and doc.get("format") == "levelbench.run":
            got = "a levelbench run export (levelbench export --format json)"
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file (written by pytest --benchmark-json=PATH or "
                                 f"--benchmark-autosave) with a 'benchmarks' list, got {got} in {source}")
    if _deeper_than(doc, MAX_DEPTH):
        raise NotPytestBenchmark(_too_deep(source))
    machine = doc.get("machine_info") if isinstance(doc.get("machine_info"), dict) else {}
    environment = _environment(machine, doc)
    results = [_result(b, i, source, environment) for i, b in enumerate(doc["benchmarks"])]
    run = {"kind": IMPORTED_KIND, "argv": ["import", source], "environment": environment,
           "git_commit": _commit(doc.get("commit_info")), "label": f"imported from {Path(source).name}",
           "started": _started(doc.get("datetime"), source)}
    return run, results


def _result(bench: Any, index: int, source: str, environment: dict[str, Any]) -> WorkloadResult:
    where = f"benchmark {index} of {source}"
    if not isinstance(bench, dict) or not isinstance(bench.get("stats"), dict):
        raise NotPytestBenchmark(f"expected a benchmark with 'name' and 'stats', got {_BRIEF.repr(bench)} as {where}")
    name = str(bench.get("name") or bench.get("fullname") or f"benchmark {index}")
    samples = _samples(bench["stats"].get("data"), name, where)
    calls = _iterations(bench["stats"], name, where)
    m = Measurement(label=name, framework="python", samples=samples, calls_per_sample=calls, first_call=0.0,
                    total_time=sum(samples) * calls, environment=environment)
    params = bench.get("params") if isinstance(bench.get("params"), dict) else {}
    workload = str(bench.get("fullname") or name)
    group = f" (group {bench['group']})" if bench.get("group") else ""
    c = Comparison(baseline=name, measurements={name: m}, rounds={name: samples}, environment=environment,
                   title=workload, params=dict(params), notes={name: f"imported from pytest-benchmark{group}"})
    return WorkloadResult(workload, dict(params), "ok", c, duration=m.total_time)


def _samples(data: Any, name: str, where: str) -> tuple[float, ...]:
    """``stats.data`` as seconds per call: refused when absent (the file was saved without them) or when a
    value is not a time (the file was edited or damaged), with the fix for each."""
    if not isinstance(data, list) or not data:
        raise NotPytestBenchmark(
            f"expected the raw timings of {name!r} ({where}) in stats.data, got "
            f"{'none' if not data else _BRIEF.repr(data)}: pytest-benchmark keeps them with --benchmark-json=PATH, "
            "or with --benchmark-save-data next to --benchmark-save/--benchmark-autosave; re-run with one of those "
            "(levelbench compares runs on the raw samples, not on summary statistics)")
    bad = next((i for i, x in enumerate(data) if not _is_time(x)), None)
    if bad is not None:
        raise NotPytestBenchmark(
            f"expected the raw timings of {name!r} ({where}) in stats.data to be times in seconds, each a finite "
            f"number >= 0, got {_BRIEF.repr(data[bad])} at position {bad} of {len(data)}: pytest-benchmark never "
            "writes that, so the file was edited or damaged; write it again with pytest --benchmark-json=PATH")
    return tuple(float(x) for x in data)


def _is_time(x: Any) -> bool:
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        return False
    try:
        x = float(x)
    except OverflowError:  # an integer of 400 digits
        return False
    return math.isfinite(x) and x >= 0


def _iterations(stats: Mapping[str, Any], name: str, where: str) -> int:
    """``stats.iterations``, the calls each raw timing is the mean of: a whole number >= 1 (1 when absent)."""
    value = stats.get("iterations", 1)
    whole = isinstance(value, int) or isinstance(value, float) and value.is_integer()
    if isinstance(value, bool) or not whole or value < 1:
        raise NotPytestBenchmark(
            f"expected stats.iterations of {name!r} ({where}) to be the calls per round, a whole number >= 1, got "
            f"{_BRIEF.repr(value)}: pytest-benchmark writes 1 or more, so the file was edited or damaged; correct "
            "it, or write it again with pytest --benchmark-json=PATH")
    return int(value)


def _deeper_than(doc: Any, limit: int) -> bool:
    """Whether lists and objects nest more than ``limit`` levels (walked without recursion)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return True
        children = value.values() if isinstance(value, dict) else value
        stack.extend((c, depth + 1) for c in children if isinstance(c, (dict, list)))
    return False


def _too_deep(source: str) -> str:
    return (f"expected a pytest-benchmark JSON file, got JSON nested more than {MAX_DEPTH} levels deep in {source} "
            "(pytest-benchmark writes 4): pass the file pytest --benchmark-json=PATH wrote")


def _environment(machine: Mapping[str, Any], doc: Mapping[str, Any]) -> dict[str, Any]:
    cpu = machine.get("cpu") if isinstance(machine.get("cpu"), dict) else {}
    env = {"hostname": machine.get("node"), "python": machine.get("python_version"),
           "implementation": machine.get("python_implementation"), "system": machine.get("system"),
           "release": machine.get("release"), "machine": machine.get("machine"),
           "cpu": cpu.get("brand_raw"), "cpu_count": cpu.get("count"),
           "packages": {"pytest-benchmark": str(doc.get("version", ""))}}
    return {k: v for k, v in env.items() if v not in (None, "")} | {"imported": {"machine_info": dict(machine)}}


def _commit(info: Any) -> str:
    if not isinstance(info, dict) or not info.get("id") or info.get("id") == "unversioned":
        return ""  # begin_run: record no commit (None would detect this directory's)
    return str(info["id"])[:12] + ("+dirty" if info.get("dirty") else "")


def _started(text: Any, source: str) -> float | None:
    """``datetime`` as unix time; None (recorded as the time of import) when the file has none."""
    if text is None:
        return None
    try:
        when = datetime.datetime.fromisoformat(text) if isinstance(text, str) else None
    except ValueError:
        when = None
    if when is None:
        raise NotPytestBenchmark(
            f"expected 'datetime' in {source} to be the time of the run in ISO 8601, like "
            f"2026-12-02T04:05:06.789012+00:00 (pytest-benchmark writes it so), got {_BRIEF.repr(text)}: correct it, "
            "or remove it to record the file at the time of import")
    if when.tzinfo is None:  # pytest-benchmark before 4.0 wrote utcnow() without a zone
        when = when.replace(tzinfo=datetime.timezone.utc)
    return when.timestamp()


def load_pytest_benchmark(path: str | Path, max_bytes: int = MAX_IMPORT_BYTES
                          ) -> tuple[dict[str, Any], list[WorkloadResult]]:
    """`read_pytest_benchmark` of the file at ``path``: checked whole, nothing written. Raises `NotPytestBenchmark`.

    Only a regular file of at most ``max_bytes`` is read (a FIFO or a device is refused before it can block).
    The run's environment records the file's SHA-256 (``environment["imported"]["sha256"]``), by which
    `imported_before` knows a file imported again.
    """
    source = str(path)
    try:
        data = read_regular_file(path, max_bytes)
    except FileRefused as e:
        fix = (" (raise it with --max-bytes)" if "limit" in str(e) else
               ": only a file is read; save the JSON to one first (pytest --benchmark-json=PATH)")
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file, got {source}: {e}{fix}") from None
    except OSError as e:
        raise NotPytestBenchmark(f"expected a readable pytest-benchmark JSON file, got {source}: "
                                 f"{e.strerror or e}") from None
    try:
        doc = json.loads(data.decode("utf-8"))
    except UnicodeDecodeError as e:
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file, got bytes that are not UTF-8 text in "
                                 f"{source} ({e.reason} at byte {e.start}): pass the file pytest "
                                 "--benchmark-json=PATH wrote") from None
    except RecursionError:
        raise NotPytestBenchmark(_too_deep(source)) from None
    except ValueError as e:
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file, got text that is not JSON in {source} "
                                 f"({e}): pass the file pytest --benchmark-json=PATH wrote") from None
    run, results = read_pytest_benchmark(doc, source)
    environment = run["environment"]  # a copy: the results' environments stay as the file has them
    run["environment"] = environment | {"imported": environment["imported"] | {"sha256": hashlib.sha256(data).hexdigest()}}
    return run, results


def converted(results: Sequence[WorkloadResult]) -> list[dict[str, Any]]:
    """The results as the store writes them (``to_dict()``, statistics and ratios computed): what could fail in
    recording a file, done before anything is recorded."""
    return [r.to_dict() for r in results]


def imported_before(store: "Store", run: Mapping[str, Any]) -> int | None:
    """The id of an ``ok`` run that recorded the same file already, or None.

    The same file is the same bytes (the SHA-256 that `load_pytest_benchmark` records). A run imported by an
    older levelbench, which recorded no digest, is matched as `merge` matches runs: the same start time, kind,
    command line and host.
    """
    digest = run["environment"].get("imported", {}).get("sha256")
    with store._read() as conn:
        row = conn.execute(
            "SELECT id FROM runs WHERE kind = ? AND status = 'ok' AND (json_extract(environment, '$.imported.sha256') = ?"
            " OR (json_extract(environment, '$.imported.sha256') IS NULL AND started = ? AND argv = ?"
            " AND json_extract(environment, '$.hostname') IS ?)) ORDER BY id LIMIT 1",
            (run["kind"], digest, run["started"], json.dumps(list(run["argv"])), run["environment"].get("hostname")),
        ).fetchone()
    return None if row is None else int(row[0])


def record_imported(store: "Store", run: dict[str, Any],
                    results: Sequence[WorkloadResult | Mapping[str, Any]]) -> int:
    """Record what `load_pytest_benchmark` read (the results, or their `converted` form) as one run of kind
    ``pytest-benchmark``; returns its id. Stopped part way, the run ends as every run does (`stopped_by`:
    ``interrupted`` on Ctrl-C, else ``failed``), the benchmarks recorded so far kept."""
    run_id = store.begin_run(**run)
    status, error = RUN_OK, ""
    try:
        for r in results:
            store.add_result(run_id, r)
    except BaseException as e:
        status, error = stopped_by(e)
        error = f"{error}: the import stopped before its last benchmark"
        raise
    finally:
        store.end_run(run_id, status, error)
    return run_id


def import_pytest_benchmark(store: "Store", path: str | Path, max_bytes: int = MAX_IMPORT_BYTES) -> int:
    """Record the pytest-benchmark JSON file at ``path`` in ``store`` as one run; returns its id.

    The file is read, checked and converted whole before anything is written. A file imported before (the same
    bytes, `imported_before`) is not recorded again: the id of the run it was recorded as is returned. Raises
    `NotPytestBenchmark`.

    Example:
        >>> from levelbench.store import open_store, import_pytest_benchmark
        >>> with open_store() as store:                                       # doctest: +SKIP
        ...     run_id = import_pytest_benchmark(store, "bench.json")       # pytest --benchmark-json=bench.json
    """
    run, results = load_pytest_benchmark(path, max_bytes)
    documents = converted(results)
    before = imported_before(store, run)
    return before if before is not None else record_imported(store, run, documents)


@dataclasses.dataclass(frozen=True)
class Imported:
    """What `import_files` did with one file: recorded now as run ``run_id`` (``benchmarks`` results,
    ``git_commit`` the file's, ``dated`` False when the file gave no time and the import's was used),
    or, when ``not_again`` says why, left as run ``run_id`` already holds it: ``"given again"``,
    ``"the same file as PATH"`` (the same bytes given twice in one call) or ``"already imported"``."""

    path: str
    run_id: int
    benchmarks: int
    git_commit: str | None = None
    dated: bool = True
    not_again: str = ""


def import_files(paths: Sequence[str | Path], db: str | Path | None = None, max_bytes: int = MAX_IMPORT_BYTES,
                 on_file: Callable[[Imported], None] | None = None) -> list[Imported]:
    """``levelbench import``: record the pytest-benchmark JSON files at ``paths`` in the results
    database at ``db`` (default: `default_path`), one run per file, and say what became of each
    (``on_file`` sees each as it is done).

    Every file is read, checked and converted before the database is opened, so a file that cannot
    be imported records nothing, not even the files before it (`NotPytestBenchmark`; a
    `MemoryError` naming the file when converting it does not fit in memory). A file imported
    before, or given twice (the same bytes), is recorded once. Raises `StoreError` for a database
    that cannot be used.

    Example:
        >>> [i.run_id for i in import_files(["before.json", "after.json"])]     # doctest: +SKIP
        [1, 2]
    """
    loaded = []
    for path in paths:
        try:
            run, results = load_pytest_benchmark(path, max_bytes)
            loaded.append((str(path), run, converted(results)))
        except MemoryError:  # bounded (max_bytes, no per-sample bootstrap), but a small machine may still run out
            raise MemoryError(f"not enough memory to read and convert {path}; nothing was recorded: import it on a "
                              "machine with more memory, or split its benchmarks over several files") from None
    done: list[Imported] = []
    tell = on_file or (lambda imported: None)
    with open_store(db) as store:
        seen: dict[str, Imported] = {}
        for path, run, documents in loaded:
            digest = run["environment"]["imported"]["sha256"]
            first = seen.get(digest)
            if first is not None:
                why = "given again" if first.path == path else f"the same file as {first.path}"
                imported = Imported(path, first.run_id, len(documents), run["git_commit"], run["started"] is not None,
                                    why)
            else:
                before = imported_before(store, run)
                run_id = before if before is not None else record_imported(store, run, documents)
                imported = Imported(path, run_id, len(documents), run["git_commit"], run["started"] is not None,
                                    "already imported" if before is not None else "")
                seen[digest] = imported
            done.append(imported)
            tell(imported)
    return done

