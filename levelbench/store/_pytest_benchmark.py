"""pytest-benchmark's JSON: a recorded run written as it (``pytest-benchmark compare`` reads it), and
its files read back into the store (``levelbench import``).

pytest-benchmark keeps, per benchmark, the per-call time of every round (``stats.data``, each the
mean of ``stats.iterations`` calls) and statistics derived from them; levelbench keeps the same
thing per candidate (``samples``, each the mean of ``calls_per_sample`` calls). So a candidate is
one benchmark, with the same numbers in both, and the statistics are computed the way
pytest-benchmark computes them (``pytest_benchmark.stats.Stats``), so both tools print the same.

What pytest-benchmark does not measure is not made up on import: the first call and compilation
are recorded as 0, and a file without raw timings (saved without ``--benchmark-save-data``) is
refused, since diffs need the samples.
"""

from __future__ import annotations

import bisect
import datetime
import json
import math
import statistics
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .._results.comparison import Comparison
from .._results.measurement import Measurement
from .._results.workload import WorkloadResult
from ._records import Run, params_text

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
def read_pytest_benchmark(doc: Any, source: str) -> tuple[dict[str, Any], list[WorkloadResult]]:
    """The run (``begin_run`` keywords) and results in a pytest-benchmark JSON document.

    Each benchmark becomes one result named by its ``fullname`` (``tests/test_x.py::test_sum[10]``),
    with its ``params``, holding one candidate named by its ``name``. Raises `NotPytestBenchmark`.
    """
    if not isinstance(doc, dict) or not isinstance(doc.get("benchmarks"), list):
        got = f"a JSON object with keys {sorted(doc)[:8]}" if isinstance(doc, dict) else f"a JSON {type(doc).__name__}"
        if isinstance(doc, dict) and doc.get("format") == "levelbench.run":
            got = "a levelbench run export (levelbench export --format json)"
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file (written by pytest --benchmark-json=PATH or "
                                 f"--benchmark-autosave) with a 'benchmarks' list, got {got} in {source}")
    machine = doc.get("machine_info") if isinstance(doc.get("machine_info"), dict) else {}
    environment = _environment(machine, doc)
    results = [_result(b, i, source, environment) for i, b in enumerate(doc["benchmarks"])]
    run = {"kind": IMPORTED_KIND, "argv": ["import", source], "environment": environment,
           "git_commit": _commit(doc.get("commit_info")), "label": f"imported from {Path(source).name}",
           "started": _started(doc.get("datetime"))}
    return run, results


def _result(bench: Any, index: int, source: str, environment: dict[str, Any]) -> WorkloadResult:
    where = f"benchmark {index} of {source}"
    if not isinstance(bench, dict) or not isinstance(bench.get("stats"), dict):
        raise NotPytestBenchmark(f"expected a benchmark with 'name' and 'stats', got {str(bench)[:80]!r} as {where}")
    name = str(bench.get("name") or bench.get("fullname") or f"benchmark {index}")
    data = bench["stats"].get("data")
    if not isinstance(data, list) or not data or not all(isinstance(x, (int, float)) and math.isfinite(x)
                                                          and x >= 0 for x in data):
        raise NotPytestBenchmark(
            f"expected the raw timings of {name!r} ({where}) in stats.data, got "
            f"{'none' if not data else repr(data)[:60]}: pytest-benchmark keeps them with --benchmark-json=PATH, or "
            "with --benchmark-save-data next to --benchmark-save/--benchmark-autosave; re-run with one of those "
            "(levelbench compares runs on the raw samples, not on summary statistics)")
    iterations = bench["stats"].get("iterations", 1)
    calls = int(iterations) if isinstance(iterations, (int, float)) and iterations >= 1 else 1
    samples = tuple(float(x) for x in data)
    m = Measurement(label=name, framework="python", samples=samples, calls_per_sample=calls, first_call=0.0,
                    total_time=sum(samples) * calls, environment=environment)
    params = bench.get("params") if isinstance(bench.get("params"), dict) else {}
    workload = str(bench.get("fullname") or name)
    group = f" (group {bench['group']})" if bench.get("group") else ""
    c = Comparison(baseline=name, measurements={name: m}, rounds={name: samples}, environment=environment,
                   title=workload, params=dict(params), notes={name: f"imported from pytest-benchmark{group}"})
    return WorkloadResult(workload, dict(params), "ok", c, duration=m.total_time)


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


def _started(text: Any) -> float | None:
    try:
        return datetime.datetime.fromisoformat(str(text)).timestamp()
    except ValueError:
        return None


def load_pytest_benchmark(path: str | Path) -> tuple[dict[str, Any], list[WorkloadResult]]:
    """`read_pytest_benchmark` of the file at ``path``: checked whole, nothing written. Raises `NotPytestBenchmark`."""
    source = str(path)
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise NotPytestBenchmark(f"expected a readable pytest-benchmark JSON file, got {source}: "
                                 f"{getattr(e, 'strerror', None) or e}") from None
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise NotPytestBenchmark(f"expected a pytest-benchmark JSON file, got text that is not JSON in {source} "
                                 f"({e}): pass the file pytest --benchmark-json=PATH wrote") from None
    return read_pytest_benchmark(doc, source)


def record_imported(store: "Store", run: dict[str, Any], results: list[WorkloadResult]) -> int:
    """Record what `load_pytest_benchmark` read as one run of kind ``pytest-benchmark``; returns its id."""
    run_id = store.begin_run(**run)
    status = "failed"
    try:
        for r in results:
            store.add_result(run_id, r)
        status = "ok"
    finally:
        store.end_run(run_id, status, "" if status == "ok" else "the import stopped before its last benchmark")
    return run_id


def import_pytest_benchmark(store: "Store", path: str | Path) -> int:
    """Record the pytest-benchmark JSON file at ``path`` in ``store`` as one run; returns its id.

    The file is read and checked whole before anything is written. Raises `NotPytestBenchmark`.

    Example:
        >>> from levelbench.store import open_store, import_pytest_benchmark
        >>> with open_store() as store:                                       # doctest: +SKIP
        ...     run_id = import_pytest_benchmark(store, "bench.json")       # pytest --benchmark-json=bench.json
    """
    return record_imported(store, *load_pytest_benchmark(path))
