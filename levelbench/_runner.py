"""Run workloads, each in its own worker process by default.

A worker gets its spec as JSON and sends its result back as JSON, so a crash, a hang or running
out of memory in one workload becomes a failed result with the reason, and the run goes on.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

from ._compare import Comparison
from ._findings import Finding, Severity

PROGRESS_PREFIX = "\x1elevelbench-progress "


@dataclasses.dataclass(frozen=True)
class WorkloadResult:
    """What one workload (at one point of a sweep) produced."""

    workload: str
    params: dict[str, Any]
    status: str  # "ok" | "failed" | "timeout" | "skipped" | "interrupted"
    comparison: Comparison | None = None
    error: str = ""
    duration: float = 0.0

    def to_dict(self) -> dict[str, Any]:
        return {
            "workload": self.workload,
            "params": self.params,
            "status": self.status,
            "comparison": self.comparison.to_dict() if self.comparison else None,
            "error": self.error,
            "duration": self.duration,
        }

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> "WorkloadResult":
        c = d.get("comparison")
        return cls(d["workload"], dict(d.get("params", {})), d["status"],
                   Comparison.from_dict(c) if c else None, d.get("error", ""), d.get("duration", 0.0))


@dataclasses.dataclass(frozen=True)
class Job:
    workload: str  # a built-in name or FILE.py:NAME
    params: dict[str, Any]
    budget: float
    diagnose: bool = True  # run levelbench.explain on each JAX candidate and attach its findings

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


Progress = Callable[[Job, str, float], None]


def run_job(job: Job, progress: Callable[[str, float], None] | None = None) -> WorkloadResult:
    """Run one job in this process."""
    from . import compare
    from ._parity import ComparisonError
    from .workloads import Skipped, load

    started = time.perf_counter()
    try:
        workload = load(job.workload)
        cands = workload.candidates(**job.params)
        skipped = {n: c.reason for n, c in cands.items() if isinstance(c, Skipped)}
        real = {n: c for n, c in cands.items() if not isinstance(c, Skipped)}
        comparison = compare(real, baseline=workload.baseline if workload.baseline in real else None,
                             budget=job.budget, title=workload.name, params=job.params, progress=progress,
                             **workload.compare_options)
    except ComparisonError as e:
        return WorkloadResult(job.workload, job.params, "failed", error=f"{e}", duration=time.perf_counter() - started)
    comparison = dataclasses.replace(comparison, skipped=skipped)
    if job.diagnose:
        comparison = diagnose(comparison, real, progress)
    return WorkloadResult(job.workload, job.params, "ok", comparison, duration=time.perf_counter() - started)


# What `levelbench run` asks of the dynamic doctor: the cheap probes, plus the two that explain
# the seed GRU question (an unrolled Python loop under jit, op-by-op dispatch without it).
RUN_PROBES = ("config", "dead", "precision", "transfers", "retrace", "unrolled", "dispatch")


def diagnose(comparison: Comparison, candidates: dict[str, Any],
             progress: Callable[[str, float], None] | None = None) -> Comparison:
    """Attach `levelbench.explain`'s warnings for each JAX candidate to the comparison's findings."""
    from . import explain

    jax_names = [n for n, m in comparison.measurements.items() if m.framework == "jax"]
    found = list(comparison.findings)
    for i, name in enumerate(jax_names):
        if progress:
            progress(f"diagnosing: {name}", i / len(jax_names))
        c = candidates[name]
        try:
            d = explain(c.fn, *c.args, probes=RUN_PROBES, measurement=comparison.measurements[name], budget=0.5,
                        label=name, **c.kwargs)
        except Exception as e:  # a diagnosis is extra information: it never fails the workload
            found.append(Finding("LB299", f"levelbench.explain could not diagnose this candidate: {type(e).__name__}",
                                 Severity.INFO, evidence=str(e)[:300], subject=name))
            continue
        own = {f.code for f in comparison.measurements[name].findings}
        found += [dataclasses.replace(f, subject=name) for f in d.findings
                  if f.severity >= Severity.WARNING and f.code not in own]
    return dataclasses.replace(comparison, findings=tuple(found))


def run_jobs(jobs: list[Job], *, in_process: bool = False, timeout: float | None = None,
             progress: Progress | None = None) -> Iterator[WorkloadResult]:
    """Yield one result per job, in order. Ctrl-C: the running job is stopped and reported as
    ``interrupted``, and iteration ends (the results already yielded are the caller's)."""
    for job in jobs:
        report = (lambda stage, fraction, job=job: progress(job, stage, fraction)) if progress else None
        if in_process:
            try:
                yield run_job(job, report)
            except KeyboardInterrupt:
                yield WorkloadResult(job.workload, job.params, "interrupted", error="interrupted (Ctrl-C)")
                return
            except Exception as e:  # --in-process is for debugging: report, and keep going
                yield WorkloadResult(job.workload, job.params, "failed", error=f"{type(e).__name__}: {e}")
            continue
        result = _run_in_worker(job, timeout, report)
        yield result
        if result.status == "interrupted":
            return


def _run_in_worker(job: Job, timeout: float | None, report: Callable[[str, float], None] | None) -> WorkloadResult:
    started = time.perf_counter()
    with tempfile.TemporaryDirectory(prefix="levelbench-") as tmp:
        out_path = os.path.join(tmp, "result.json")
        spec = json.dumps({"job": job.to_dict(), "out": out_path})
        proc = subprocess.Popen(
            [sys.executable, "-m", "levelbench._worker"],
            stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
            start_new_session=True,  # Ctrl-C reaches us only: we stop the worker ourselves
        )
        tail: list[str] = []
        reader = threading.Thread(target=_read_stderr, args=(proc, tail, report), daemon=True)
        reader.start()
        try:
            assert proc.stdin is not None
            proc.stdin.write(spec)
            proc.stdin.close()
            proc.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            _stop(proc)
            return WorkloadResult(job.workload, job.params, "timeout",
                                  error=f"no result after {timeout:g} s (--timeout); the worker was stopped",
                                  duration=time.perf_counter() - started)
        except KeyboardInterrupt:
            _stop(proc)
            return WorkloadResult(job.workload, job.params, "interrupted", error="interrupted (Ctrl-C)",
                                  duration=time.perf_counter() - started)
        reader.join(timeout=5)
        elapsed = time.perf_counter() - started
        try:
            with open(out_path) as f:
                return WorkloadResult.from_dict(json.load(f))
        except (OSError, ValueError):
            return WorkloadResult(job.workload, job.params, "failed", error=_death(proc.returncode, tail),
                                  duration=elapsed)


def _read_stderr(proc: subprocess.Popen, tail: list[str], report: Callable[[str, float], None] | None) -> None:
    assert proc.stderr is not None
    for line in proc.stderr:
        if line.startswith(PROGRESS_PREFIX):
            if report:
                stage, _, fraction = line[len(PROGRESS_PREFIX):].rstrip("\n").rpartition(" ")
                try:
                    report(stage, float(fraction))
                except ValueError:
                    pass
            continue
        tail.append(line.rstrip("\n"))
        del tail[:-40]


def _stop(proc: subprocess.Popen) -> None:
    import signal

    try:
        os.killpg(proc.pid, signal.SIGTERM)
        proc.wait(timeout=5)
    except (ProcessLookupError, subprocess.TimeoutExpired):
        try:
            os.killpg(proc.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
        proc.wait()


def _death(returncode: int | None, tail: list[str]) -> str:
    if returncode is not None and returncode < 0:
        import signal

        name = signal.Signals(-returncode).name
        why = "killed by the kernel (out of memory?)" if name == "SIGKILL" else f"died with {name}"
        reason = f"the worker {why}"
    else:
        reason = f"the worker exited with code {returncode}"
    last = [line for line in tail if line.strip()][-8:]
    return reason + (":\n" + "\n".join(last) if last else "")
