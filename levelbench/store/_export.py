"""A recorded run as JSON (everything, raw samples included) or CSV (one row per candidate)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Callable

from ._records import Run, params_key
from ._pyperf import export_pyperf
from ._pytest_benchmark import export_pytest_benchmark

CSV_COLUMNS = (
    "run_id", "workload", "params", "status", "error", "candidate", "framework", "baseline",
    "median_s", "ci_lower_s", "ci_upper_s", "min_s", "mean_s", "std_s", "iqr_s", "n_samples", "calls_per_sample",
    "first_call_s", "compile_s", "ratio", "ratio_lower", "ratio_upper", "verdict", "findings",
)


def export_json(run: Run) -> str:
    """The whole run: environment, and every result's comparison with raw samples."""
    return json.dumps(run.to_dict(), indent=2, default=str)


def export_csv(run: Run) -> str:
    """One row per candidate (a failed workload: one row with its error); times in seconds per call."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=CSV_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for r in run.results:
        common = {"run_id": run.id, "workload": r.workload, "params": params_key(r.params), "status": r.status,
                  "error": r.error}
        c = r.comparison
        if c is None:
            writer.writerow(common)
            continue
        for name, m in c.measurements.items():
            ratio = c.ratios[name]
            writer.writerow({
                **common,
                "candidate": name, "framework": m.framework, "baseline": c.baseline,
                "median_s": m.median, "ci_lower_s": m.ci.lower, "ci_upper_s": m.ci.upper, "min_s": m.min,
                "mean_s": m.mean, "std_s": m.std, "iqr_s": m.iqr, "n_samples": m.n_samples,
                "calls_per_sample": m.calls_per_sample, "first_call_s": m.first_call,
                "compile_s": m.compile.total if m.compile else (m.compile_in_first_call or ""),
                "ratio": ratio.estimate, "ratio_lower": ratio.lower, "ratio_upper": ratio.upper,
                "verdict": c.verdict(name),
                "findings": " ".join(f.code for f in c.findings_for(name)),
            })
    return buf.getvalue()


def _pytest_benchmark(run: Run) -> str:
    return export_pytest_benchmark(run)


def _pyperf(run: Run) -> str:
    return export_pyperf(run)


WRITERS: dict[str, tuple[Callable[[Run], str], str]] = {
    "json": (export_json, "everything, raw samples included"),
    "csv": (export_csv, "one row per candidate"),
    "pytest-benchmark": (_pytest_benchmark, "a file `pytest-benchmark compare` reads"),
    "pyperf": (_pyperf, "a suite `python -m pyperf compare_to` reads"),
}
"""``levelbench export --format NAME``: NAME -> (writer of a recorded run, what it holds). A new format
(another tool's file) is one entry here; the command's choices and help are read from it."""
