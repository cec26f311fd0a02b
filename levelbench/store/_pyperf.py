"""pyperf's JSON: a recorded run written as a pyperf benchmark suite (``python -m pyperf compare_to
A.json B.json``, ``pyperf stats``, ``pyperf hist`` read it).

pyperf stores, per benchmark, runs of values, each value the time of one loop (one call) averaged
over ``loops`` calls, and warmups as ``(loops, value)`` pairs. A levelbench candidate maps onto one
benchmark with one run: its samples are the values, ``calls_per_sample`` the loops, and the first
call (compilation included) the one warmup. pyperf refuses metadata that is empty or spans lines,
so only what is set is written, on one line.
"""

from __future__ import annotations

import datetime
import json
from collections.abc import Mapping
from typing import Any

from ._records import Run, params_text

PYPERF_FORMAT = "1.0"  # pyperf's _JSON_VERSION, read by every pyperf since 1.0


def export_pyperf(run: Run) -> str:
    """``run`` as a pyperf suite: one benchmark per candidate of each result, named
    ``workload[params]::candidate``, the name ``compare_to`` matches two suites by."""
    benchmarks = []
    for r in run.results:
        if r.comparison is None:
            continue
        group = f"{r.workload}[{params_text(r.params)}]" if r.params else r.workload
        for name, m in r.comparison.measurements.items():
            metadata = _clean({"name": f"{group}::{name}", "unit": "second", "loops": max(1, int(m.calls_per_sample)),
                               "framework": m.framework, "levelbench_workload": r.workload,
                               "levelbench_candidate": name, "duration": float(m.total_time)})
            benchmarks.append({"metadata": metadata,
                               "runs": [{"warmups": [[1, float(m.cold_start)]], "values": [float(v) for v in m.samples]}]})
    env = run.environment or next((r.comparison.environment for r in run.results if r.comparison), {})
    suite_metadata = _clean({
        "date": datetime.datetime.fromtimestamp(run.started).isoformat(" "),
        "hostname": env.get("hostname"), "python_version": env.get("python"), "platform": env.get("platform"),
        "cpu_model_name": env.get("cpu"), "cpu_count": env.get("cpu_count"),
        "levelbench_run": run.id, "levelbench_commit": run.git_commit, "levelbench_label": run.label,
    })
    return json.dumps({"version": PYPERF_FORMAT, "metadata": suite_metadata, "benchmarks": benchmarks}, indent=1)


def _clean(metadata: Mapping[str, Any]) -> dict[str, Any]:
    """What pyperf accepts: ints, floats and non-empty one-line strings; nothing else is written."""
    out: dict[str, Any] = {}
    for key, value in metadata.items():
        if isinstance(value, bool) or value is None:
            continue
        if isinstance(value, (int, float)):
            if key == "cpu_count" and value < 1:
                continue
            out[key] = value
            continue
        text = " ".join(str(value).split())
        if text:
            out[key] = text
    return out
