"""Run workloads: candidates in worker processes, their samples interleaved from this one.

Each workload's candidates are built and timed in worker processes (`levelbench._workers`), one
per framework by default, so no framework's thread pools share a process with another's; this
process interleaves their blocks of samples. A crash, a hang or running out of memory becomes a
failed result with the reason, and the run goes on.
"""

from __future__ import annotations

import dataclasses
import time
from collections.abc import Callable, Iterator
from typing import Any

from .._measuring.candidate import Candidate
from .._results.measurement import Measurement
from .._results.workload import WorkloadResult
from .._values.errors import InputError
from .._values.findings import Finding, Severity
from .._values.settings import PROBING
from . import Skipped, load
from .._measuring.compare import Settings, check_settings, run_comparison
from .._measuring.lanes import LocalLane
from .._measuring.parity import ComparisonError
from .._measuring.workers import DeadlineExceeded, WorkerError, Workers
from .._probing import explain
from .._probing.fixes import try_fix
from .._values.targets import absolute, is_file_target, split_target
from .._values.units import fmt_bytes


@dataclasses.dataclass(frozen=True)
class Job:
    workload: str  # a built-in name or FILE.py:NAME
    params: dict[str, Any]
    budget: float
    diagnose: bool = True  # run levelbench.explain on each JAX candidate and attach its findings
    isolation: str = "framework"  # worker processes: one per "framework" or per "candidate"
    # What the parent needs of the workload, read where it was loaded (a worker, for a user's file):
    title: str = ""
    baseline: str | None = None
    compare_options: dict[str, Any] = dataclasses.field(default_factory=dict)
    # For a user's FILE.py:NAME: the same target with the path made absolute (the name above stays as
    # given, for the record), and the sha256 of the file, so that a cluster's node loads the driver's
    # file and refuses another one, whatever directory its Ray worker runs in.
    source: str = ""
    digest: str = ""

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    @property
    def spec(self) -> str:
        """The target to load: `source` when there is one."""
        return self.source or self.workload

    def source_problem(self) -> str:
        """Why this job's file cannot be loaded here as the one it was planned with ("" when it can)."""
        if not self.source:
            return ""
        import hashlib


        path = split_target(self.source)[0]
        try:
            with open(path, "rb") as f:
                digest = hashlib.sha256(f.read()).hexdigest()
        except OSError as e:
            return (f"the workload file {path} cannot be read here ({e.strerror or type(e).__name__}): levelbench "
                    "does not ship workload files; put it at the same path on every node (docs/guide/cluster.md)")
        if self.digest and digest != self.digest:
            return (f"the workload file {path} here is not the one levelbench run was given (sha256 {digest[:12]}, "
                    f"not {self.digest[:12]}): copy the driver's file to the same path on every node")
        return ""


def located(spec: str) -> tuple[str, str]:
    """(``spec`` with its file's path made absolute, the file's sha256) for a FILE.py target; ("", "") otherwise."""
    import hashlib


    if not is_file_target(spec):
        return "", ""
    source = absolute(spec)
    try:
        with open(split_target(source)[0], "rb") as f:
            return source, hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return source, ""


Progress = Callable[[Job, str, float], None]

# What `levelbench run` asks of the dynamic doctor: the cheap probes, plus the two that explain
# the seed GRU question (an unrolled Python loop under jit, op-by-op dispatch without it), and the
# dense-kernel comparison that answers the seed dot question (LB262: says nothing without a large matmul).
RUN_PROBES = ("config", "dead", "precision", "transfers", "retrace", "unrolled", "dispatch", "kernels")
# Findings attached whatever their severity: the kernel comparison is the answer, not only a warning.
ALWAYS_ATTACHED = ("LB262",)
BUILD = "levelbench.workloads.run:build_candidates"
"""Called in a worker process to build a job's candidates (the worker knows no workloads)."""
DIAGNOSIS = "levelbench.workloads.run:diagnosis"
"""Called in each candidate's worker process after timing (see `run_comparison`'s ``extra_findings``)."""


EXPAND = "levelbench.workloads.run:expand"
"""Called in a worker process to read a user's workload file (its import runs under ``--timeout``)."""


class PlanError(InputError):
    """The command line asks for something the workload cannot run: the message says what and the fix."""


def expand(spec: str, overrides: dict[str, list[str]], full: bool) -> dict[str, Any]:
    """The points of workload ``spec`` for command-line ``overrides`` (``{name: [text, ...]}``, a sweep
    per name), checked: values parsed and in range, the arrays fitting in memory.

    Returns a plain dict (it crosses a process boundary): ``title``, ``params`` (the names it knows),
    ``points`` (one parameter dict per job), ``baseline``, ``compare_options``; or ``error``, the
    one-line message, when the command line is wrong for it.
    """
    import itertools


    workload = load(spec)
    known = [p.name for p in workload.all_params]
    try:
        _settings(workload.name, workload.compare_options, 1.0)
        base = workload.defaults(full=full)
        axes = {name: [workload.param(name).parse(v) for v in values]
                for name, values in overrides.items() if name in known}
        points = [{**base, **dict(zip(axes, combo))} for combo in itertools.product(*axes.values())]
        for point in points:
            _check_fits(workload, point)
    except ValueError as e:
        return {"error": str(e), "params": known}
    return {"title": workload.name, "params": known, "points": points, "baseline": workload.baseline,
            "compare_options": dict(workload.compare_options)}


def _check_fits(workload: Any, params: dict[str, Any]) -> None:
    if workload.footprint is None:
        return

    need, have = float(workload.footprint(**params)), _available_memory()
    if have is not None and need > have:
        shown = ", ".join(f"{k}={v}" for k, v in params.items())
        raise PlanError(f"workload {workload.name!r} at {shown} needs about {fmt_bytes(need)} for its arrays; "
                        f"this machine has {fmt_bytes(have)} available: choose smaller sizes")


def _available_memory() -> float | None:
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return float(line.split()[1]) * 1024
    except OSError:
        pass
    try:
        import os

        return float(os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE"))
    except (ValueError, OSError, AttributeError):
        return None


def build_candidates(spec: str, params: dict[str, Any]) -> tuple[dict[str, Candidate], dict[str, str]]:
    """A workload's candidates at ``params``, and the ones it skipped with why."""

    workload = load(spec)
    built = workload.candidates(**params)
    if not isinstance(built, dict):
        raise PlanError(f"workload {workload.name!r}: build() must return a dict of name -> Candidate or Skipped, "
                        f"got {type(built).__name__}")
    for name, c in built.items():
        if not isinstance(c, (Candidate, Skipped)):
            raise PlanError(f"workload {workload.name!r}: build() returned {type(c).__name__} for {name!r}; "
                            "expected a levelbench.Candidate(fn, args) or a Skipped(reason)")
    skipped = {n: c.reason for n, c in built.items() if isinstance(c, Skipped)}
    return {n: c for n, c in built.items() if not isinstance(c, Skipped)}, skipped


def diagnosis(name: str, candidate: Candidate, measurement: Measurement) -> tuple[Finding, ...]:
    """`levelbench.explain`'s warnings for one JAX candidate, minus what its measurement already says."""
    if measurement.framework != "jax":
        return ()

    c = candidate
    d = explain(c.fn, *c.args, probes=RUN_PROBES, measurement=measurement, budget=PROBING.run_budget, label=name,
                fixes=False, **c.kwargs)
    own = {f.code for f in measurement.findings}
    kept = [f for f in d.findings if (f.severity >= Severity.WARNING or f.code in ALWAYS_ATTACHED) and f.code not in own]
    return tuple(dataclasses.replace(_what_changes_it(c, f), subject=name) for f in kept)


def _what_changes_it(c: Candidate, f: Finding) -> Finding:
    """Where LB262 claims a kernel gap, XLA's alternatives measured on the whole program (the fix is
    kept only when faster): the last part of the dot question's answer. Without a gap, not tried."""
    if f.code != "LB262" or f.severity < Severity.WARNING:
        return f

    return try_fix(c.fn, c.args, c.kwargs, f, PROBING.run_alternatives_budget)


def run_job(job: Job, progress: Callable[[str, float], None] | None = None,
            timeout: float | None = None) -> WorkloadResult:
    """Run one job: its candidates built and timed in worker processes, driven from this one.

    A candidate whose worker crashes is reported as failed and the others go on. When ``timeout``
    seconds (for the whole job) pass, the job ends as ``timeout``: the worker that was running is
    stopped, and if any candidate had finished a round of samples, the result keeps a partial
    comparison of those rounds (`Comparison.partial` says so).
    """

    started = time.perf_counter()

    def ended(status: str, error: str) -> WorkloadResult:
        return WorkloadResult(job.workload, job.params, status, error=error, duration=time.perf_counter() - started)

    if not job.title:  # a built-in workload, or a Job made by hand: nothing of the user's is imported here
        job = _described(job)
    settings = _settings(job.title, job.compare_options, job.budget)
    deadline = None if timeout is None else time.monotonic() + timeout
    try:
        with Workers(deadline) as workers:
            lanes, skipped = workers.candidate_set(BUILD, {"spec": job.spec, "params": job.params},
                                                   settings.options(), job.isolation, progress)
            if not lanes:
                return ended("failed", "the workload built no candidates" +
                             (f" (skipped: {', '.join(skipped)})" if skipped else ""))
            base = job.baseline if job.baseline in lanes else next(iter(lanes))
            comparison = run_comparison(lanes, base, settings, title=job.title, params=job.params,
                                        progress=progress, workers=workers, grouping=job.isolation,
                                        extra_findings=DIAGNOSIS if job.diagnose else None, skipped=skipped)
    except ComparisonError as e:
        return ended("failed", str(e))
    except DeadlineExceeded as e:
        where = f": {e}" if str(e) and str(e) != "no answer before the deadline" else ""
        return ended("timeout", f"no result after {timeout:g} s (--timeout){where}; the worker was stopped "
                                "(raise --timeout, or look for a candidate that hangs)")
    except WorkerError as e:
        return ended("failed", str(e))
    if comparison.partial:
        return WorkloadResult(job.workload, job.params, "timeout", comparison,
                              error=f"partial result: stopped after {timeout:g} s (--timeout); {comparison.partial}",
                              duration=time.perf_counter() - started)
    return WorkloadResult(job.workload, job.params, "ok", comparison, duration=time.perf_counter() - started)


def run_job_here(job: Job, progress: Callable[[str, float], None] | None = None) -> WorkloadResult:
    """Run one job with every candidate in this process (``--in-process``, for debugging)."""

    started = time.perf_counter()
    workload = load(job.spec)
    settings = _settings(workload.name, workload.compare_options, job.budget)
    cands = workload.candidates(**job.params)
    skipped = {n: c.reason for n, c in cands.items() if isinstance(c, Skipped)}
    lanes = {n: LocalLane(n, c, settings.options()) for n, c in cands.items() if not isinstance(c, Skipped)}
    base = workload.baseline if workload.baseline in lanes else next(iter(lanes))
    try:
        comparison = run_comparison(lanes, base, settings, title=workload.name, params=job.params,
                                    progress=progress, extra_findings=DIAGNOSIS if job.diagnose else None,
                                    skipped=skipped)
    except ComparisonError as e:
        return WorkloadResult(job.workload, job.params, "failed", error=f"{e}", duration=time.perf_counter() - started)
    return WorkloadResult(job.workload, job.params, "ok", comparison, duration=time.perf_counter() - started)


def _described(job: Job) -> Job:
    w = load(job.spec)
    return dataclasses.replace(job, title=w.name, baseline=w.baseline, compare_options=dict(w.compare_options))


def _settings(name: str, compare_options: dict[str, Any], budget: float) -> Any:
    known = {f.name for f in dataclasses.fields(Settings)}
    unknown = sorted(set(compare_options) - known)
    if unknown:
        raise PlanError(f"workload {name!r}: compare_options {unknown} are not compare settings; "
                        f"expected some of {sorted(known - {'timer'})}")
    settings = Settings(**{**compare_options, "budget": budget})
    try:
        check_settings(settings, f"workload {name!r}: compare_options")
    except ValueError as e:  # InputTypeError too: a plan the command line cannot run
        raise PlanError(str(e)) from None
    return settings


def run_jobs(jobs: list[Job], *, in_process: bool = False, timeout: float | None = None,
             progress: Progress | None = None) -> Iterator[WorkloadResult]:
    """Yield one result per job, in order. Ctrl-C: the running job is stopped and reported as
    ``interrupted``, and iteration ends (the results already yielded are the caller's)."""
    for job in jobs:
        report = (lambda stage, fraction, job=job: progress(job, stage, fraction)) if progress else None
        try:
            if in_process:
                result = run_job_here(job, report)
            else:
                result = run_job(job, report, timeout)
        except KeyboardInterrupt as e:  # Ctrl-C, or SIGTERM/SIGHUP turned into one by the command
            why = e.args[0] if e.args else "Ctrl-C"
            yield WorkloadResult(job.workload, job.params, "interrupted", error=f"interrupted ({why})")
            return
        except Exception as e:  # a bug or a broken workload: report it, and keep going
            yield WorkloadResult(job.workload, job.params, "failed", error=f"{type(e).__name__}: {e}")
            continue
        yield result
