"""Planning a run of workloads: the jobs, checked before anything runs or is recorded.

`plan_run` turns workload names (or ``FILE.py:NAME``) and parameter overrides into `Job` values; a
wrong workload, parameter or value raises `PlanError` naming the fix. A user's workload file is read
in a worker process under the timeout: one that cannot be read is a failed result, not an error.
`levelbench.run_workloads` (and ``levelbench run``) plan with it, then run and record the jobs.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from typing import Any

from .._results.workload import WorkloadResult
from .run import EXPAND, Job, PlanError, expand, located
from . import builtin
from .._measuring.workers import DeadlineExceeded, StepFailed, WorkerError, Workers
from .._values.targets import TargetError, check_target, split_target

DEFAULT_WORKLOADS = ("matmul", "gru")


def plan_run(specs: Sequence[str], overrides: Mapping[str, list[str] | None], *, full: bool = False,
             budget: float = 10.0, diagnose: bool = True, isolation: str = "framework",
             timeout: float = 1800.0) -> tuple[list[Job], list[WorkloadResult]]:
    """The jobs for ``specs`` (built-in names or ``FILE.py:NAME``) with parameter ``overrides`` (name ->
    values as text, e.g. ``{"n": ["1000", "2000"]}``: a sweep; None: given without a value), and a failed
    result for each user workload file that could not even be read. Raises `PlanError`, naming the fix."""

    given = {n: v for n, v in overrides.items() if v is not None}
    known = builtin()
    plans: dict[str, dict[str, Any]] = {}
    unloaded: list[WorkloadResult] = []
    for spec in specs:
        if spec in known:
            plans[spec] = expand(spec, given, full)
            continue
        if ":" not in spec:
            raise PlanError(f"unknown workload {spec!r}: expected one of {', '.join(sorted(known))}, "
                            "or FILE.py:NAME for your own")
        try:
            check_target(spec)
        except TargetError as e:
            raise PlanError(str(e)) from None
        plan = _expand_in_worker(spec, given, full, timeout)
        if isinstance(plan, WorkloadResult):
            unloaded.append(plan)
        else:
            plans[spec] = plan
    names = {n for p in plans.values() for n in p["params"]}
    unknown = sorted(set(overrides) - names)
    if unknown and not unloaded:
        listed = ", ".join(f"{s}: " + " ".join(f"--{n.replace('_', '-')}" for n in p["params"]) for s, p in plans.items())
        raise PlanError(f"no such option: {', '.join('--' + u.replace('_', '-') for u in unknown)} "
                        f"(the workloads' parameters are {listed}; see levelbench run --help)")
    for name in (n for n, v in overrides.items() if v is None and n in names):
        raise PlanError(f"--{name.replace('_', '-')} needs a value, e.g. --{name.replace('_', '-')} 100")
    for p in plans.values():
        if "error" in p:
            raise PlanError(p["error"])
    where = {spec: located(spec) for spec in plans}  # a node must load this file, whatever its directory
    jobs = [Job(spec, point, budget, diagnose, isolation, p["title"], p["baseline"], p["compare_options"],
                *where[spec]) for spec, p in plans.items() for point in p["points"]]
    return jobs, unloaded


def _expand_in_worker(spec: str, overrides: dict[str, list[str]], full: bool,
                      timeout: float) -> dict[str, Any] | WorkloadResult:
    """A user's workload file read in a worker process: its import may hang, exit or crash, and that is
    the workload failing (a result), not levelbench; a file that is no workload is a `PlanError`."""

    where = split_target(spec)[0]
    started = time.perf_counter()

    def failed(status: str, error: str) -> WorkloadResult:
        return WorkloadResult(spec, {}, status, error=error, duration=time.perf_counter() - started)

    try:
        with Workers(time.monotonic() + timeout) as workers:
            return workers.call(EXPAND, {"spec": spec, "overrides": overrides, "full": full})
    except DeadlineExceeded:
        return failed("timeout", f"importing {where} took longer than {timeout:g} s (--timeout); the worker was stopped")
    except StepFailed as e:
        text = str(e)
        if text.startswith("unknown workload") or "not a levelbench Workload" in text or " has no " in text:
            raise PlanError(text.splitlines()[0]) from None
        return failed("failed", text)
    except WorkerError as e:
        return failed("failed", f"importing {where} ended its worker: {e}")
