"""pyperf's JSON: a recorded run written as a pyperf benchmark suite (``python -m pyperf compare_to
A.json B.json``, ``pyperf stats``, ``pyperf hist`` read it).

pyperf stores, per benchmark, runs of values, each value the time of one loop (one call) averaged
over ``loops`` calls, and warmups as ``(loops, value)`` pairs. ``compare_to`` tests each benchmark
with a Student's t-test that needs the same number of values on both sides; two levelbench runs
almost never have the same number of samples. So each candidate is written as `PYPERF_VALUES`
values, whatever its sample count: its samples, in the order they were taken, cut into that many
consecutive blocks (sizes differing by at most one), each block one pyperf run whose one value is
the block's mean per call and whose ``loops`` are the calls in the block. That is what pyperf itself
would have measured with those loops (the batch means of the samples), nothing is estimated or made
up, and the mean of the values is the samples' mean (exactly, when the blocks are equal). The first
run carries the cold start (compilation and first call) as its one warmup. A candidate with fewer
samples than `PYPERF_VALUES` is written one sample per value; ``compare_to`` cannot test it against
a candidate with more. The raw samples themselves are in ``--format json`` and ``pytest-benchmark``.

pyperf refuses metadata that is empty or spans lines, so only what is set is written, on one line.
"""

from __future__ import annotations

import datetime
import json
import math
from collections.abc import Mapping, Sequence
from typing import Any

from ._records import Run, params_text

PYPERF_FORMAT = "1.0"  # pyperf's _JSON_VERSION, read by every pyperf since 1.0
# Values per benchmark: levelbench's fewest samples by default (MEASURING.min_samples, COMPARING.min_rounds),
# so any two default runs give compare_to equal counts. More blocks of fewer samples would not add power:
# the t-test's power comes from the calls, and fewer, longer blocks are closer to normal.
PYPERF_VALUES = 5


def export_pyperf(run: Run) -> str:
    """``run`` as a pyperf suite: one benchmark per candidate of each result, named
    ``workload[params]::candidate``, the name ``compare_to`` matches two suites by, holding
    `PYPERF_VALUES` values (block means of the samples, see the module's docstring)."""
    benchmarks = []
    for r in run.results:
        if r.comparison is None:
            continue
        group = f"{r.workload}[{params_text(r.params)}]" if r.params else r.workload
        for name, m in r.comparison.measurements.items():
            metadata = _clean({"name": f"{group}::{name}", "unit": "second", "framework": m.framework,
                               "levelbench_workload": r.workload, "levelbench_candidate": name,
                               "levelbench_samples": len(m.samples), "levelbench_total_time": float(m.total_time)})
            runs = _runs(m.samples, max(1, int(m.calls_per_sample)))
            runs[0]["warmups"] = [[1, float(m.cold_start)]]
            benchmarks.append({"metadata": metadata, "runs": runs})
    env = run.environment or next((r.comparison.environment for r in run.results if r.comparison), {})
    suite_metadata = _clean({
        "date": datetime.datetime.fromtimestamp(run.started).isoformat(" "),
        "hostname": env.get("hostname"), "python_version": env.get("python"), "platform": env.get("platform"),
        "cpu_model_name": env.get("cpu"), "cpu_count": env.get("cpu_count"),
        "levelbench_run": run.id, "levelbench_commit": run.git_commit, "levelbench_label": run.label,
    })
    return json.dumps({"version": PYPERF_FORMAT, "metadata": suite_metadata, "benchmarks": benchmarks}, indent=1)


def _runs(samples: Sequence[float], calls_per_sample: int) -> list[dict[str, Any]]:
    """`PYPERF_VALUES` pyperf runs (fewer only when there are fewer samples): consecutive blocks of the
    samples, each run one value, the block's mean per call, over ``loops`` = the calls in the block."""
    n = len(samples)
    if n == 0:  # a candidate cut short before its first sample: its warmup only, as pyperf's calibration runs
        return [{"values": []}]
    k = min(PYPERF_VALUES, n)
    runs = []
    for i in range(k):
        block = samples[i * n // k:(i + 1) * n // k]
        # pyperf adds up its runs' durations ("Total duration"): each run's is the time of its calls
        runs.append({"metadata": {"loops": len(block) * calls_per_sample,
                                  "duration": math.fsum(block) * calls_per_sample},
                     "values": [math.fsum(block) / len(block)]})
    return runs


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
