"""Worker process for `levelbench run`: one job in (JSON on stdin), one result out (a JSON file)."""

from __future__ import annotations

import json
import os
import sys
import traceback


def main() -> int:
    spec = json.load(sys.stdin)
    from ._runner import PROGRESS_PREFIX, Job, WorkloadResult, run_job

    job = Job(**spec["job"])

    def progress(stage: str, fraction: float) -> None:
        print(f"{PROGRESS_PREFIX}{stage} {fraction:.3f}", file=sys.stderr, flush=True)

    try:
        result = run_job(job, progress)
    except Exception as e:
        tb = traceback.format_exc(limit=-3)
        result = WorkloadResult(job.workload, job.params, "failed", error=f"{type(e).__name__}: {e}\n{tb}")
    tmp = spec["out"] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result.to_dict(), f, default=str)
    os.replace(tmp, spec["out"])
    return 0


if __name__ == "__main__":
    sys.exit(main())
