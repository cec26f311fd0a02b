"""Shared fakes for the store and report tests (no tests here): comparisons built from chosen
sample distributions, so verdicts and plots are deterministic and take no time to produce."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

import numpy as np

from levelbench import CompileTimes, Comparison, Finding, Measurement, Severity
from levelbench._results.workload import WorkloadResult

ENV: dict[str, Any] = {
    "python": "3.11.7",
    "cpu": "Test CPU 3000",
    "cpu_count": 2,
    "packages": {"levelbench": "0.1.0", "numpy": "2.4.6", "jax": "0.10.2", "torch": "2.13.0+cpu"},
    "env_vars": {},
    "affinity": [0, 1],
}


def measurement(name: str, framework: str, median: float, *, n: int = 40, spread: float = 0.03, seed: int = 0,
                compile_s: float | None = None, findings: tuple[Finding, ...] = ()) -> Measurement:
    rng = np.random.default_rng(seed)
    samples = tuple(float(v) for v in median * np.exp(rng.normal(0.0, spread, n)))
    compile_times = CompileTimes(0.3 * compile_s, 0.1 * compile_s, 0.6 * compile_s, "aot") if compile_s else None
    return Measurement(label=name, framework=framework, samples=samples, calls_per_sample=10, first_call=3 * median,
                       compile=compile_times, findings=findings, environment=ENV)


def comparison(candidates: Mapping[str, tuple[str, float]], *, title: str = "", params: dict | None = None,
               seed: int = 0, n: int = 40, spread: float = 0.03, compile_s: Mapping[str, float] | None = None,
               environment: dict | None = None) -> Comparison:
    """``candidates``: name -> (framework, median seconds)."""
    ms = {name: measurement(name, fw, med, n=n, spread=spread, seed=seed * 100 + i,
                            compile_s=(compile_s or {}).get(name))
          for i, (name, (fw, med)) in enumerate(candidates.items())}
    return Comparison(baseline=next(iter(ms)), measurements=ms, rounds={k: m.samples for k, m in ms.items()},
                      title=title, params=dict(params or {}), environment=environment or ENV)


def result(workload: str, candidates: Mapping[str, tuple[str, float]], params: dict | None = None,
           **kw: Any) -> WorkloadResult:
    params = dict(params or {"seed": 0})
    return WorkloadResult(workload, params, "ok", comparison(candidates, title=workload, params=params, **kw),
                          duration=1.0)


def gru_sweep(seqs: tuple[int, ...] = (25, 50, 100, 200), slowdown: float = 1.0, seed: int = 0) -> list[WorkloadResult]:
    """What ``levelbench run --workload gru --seq 25,50,100,200`` records: one result per sequence length."""
    out = []
    for seq in seqs:
        noisy = Finding("LB003", "noisy measurement: IQR is 14% of the median", Severity.WARNING,
                        evidence="IQR 2 us", fix="close other programs", subject="jax_loop")
        c = comparison({"jax_scan": ("jax", 2e-6 * seq * slowdown), "jax_loop": ("jax", 9e-6 * seq),
                        "torch": ("torch", 3e-6 * seq), "numpy": ("numpy", 7e-6 * seq)},
                       title="gru", params={"seq": seq, "batch": 8, "hidden": 64, "seed": 0}, seed=seed + seq,
                       compile_s={"jax_scan": 0.25 + 0.001 * seq, "jax_loop": 0.2 + 0.02 * seq})
        c = dataclasses.replace(c, findings=(noisy,)) if seq == seqs[-1] else c
        out.append(WorkloadResult("gru", {"seq": seq, "batch": 8, "hidden": 64, "seed": 0}, "ok", c, duration=2.0))
    return out


def record(store: Any, results: list[WorkloadResult], environment: dict | None = None, argv: tuple = ("run",)) -> int:
    run_id = store.begin_run(kind="run", argv=list(argv), environment=environment or ENV, git_commit="abc123def456")
    for r in results:
        store.add_result(run_id, r)
    store.end_run(run_id, status="ok")
    return run_id
