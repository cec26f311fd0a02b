"""Is `levelbench run` fair across frameworks? Each candidate alone in its own process, against the run.

For the seed workloads it prints, per candidate, side by side:

- alone: the candidate by itself in a fresh process (`levelbench.measure`), the reference;
- run: `levelbench run`'s figure (each framework in its own worker process, blocks interleaved,
  helper threads waited out between blocks);
- in-process: every candidate in one process, interleaved with quiet gaps (`compare` of plain
  callables), and back to back, without the gaps (how levelbench timed before isolation);

and the ratios to the baseline each way, with 95% CIs. Drift on a shared machine is slow next to
one repetition, so each repetition times the references and the run in turn (order rotated) and
the table gives medians over repetitions; `levelbench run` within 5% of alone is the goal.

    python benchmarks/isolation.py                    # every configuration, 3 repetitions (~1 h)
    python benchmarks/isolation.py --only matmul-1000 --reps 2
    python benchmarks/isolation.py --list
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from typing import Any

CONFIGS: dict[str, tuple[str, dict[str, Any]]] = {
    "matmul-1000": ("matmul", {"n": 1000, "dtype": "float32"}),
    "matmul-2000": ("matmul", {"n": 2000, "dtype": "float32"}),
    "matmul-3000-f64": ("matmul", {"n": 3000, "dtype": "float64"}),
    "gru-50-b8": ("gru", {"seq": 50, "batch": 8, "eager_max_seq": 0, "unrolled_max_seq": 0}),
    "gru-1000-b8": ("gru", {"seq": 1000, "batch": 8, "eager_max_seq": 0, "unrolled_max_seq": 0}),
    "gru-50-b64": ("gru", {"seq": 50, "batch": 64, "eager_max_seq": 0, "unrolled_max_seq": 0}),
    "gru-1000-b64": ("gru", {"seq": 1000, "batch": 64, "eager_max_seq": 0, "unrolled_max_seq": 0}),
}


def alone(workload: str, params: dict[str, Any], name: str, budget: float) -> dict[str, float]:
    """In this (fresh) process: build the workload, time one candidate by itself."""
    import levelbench
    from levelbench.workloads import load

    c = load(workload).candidates(**params)[name]
    m = levelbench.measure(c.fn, *c.args, budget=budget, environment=False, count_flops=False, **c.kwargs)
    return {"median": m.median, "lower": m.ci.lower, "upper": m.ci.upper}


def in_process(workload: str, params: dict[str, Any], budget: float) -> dict[str, Any]:
    """In this (fresh) process: every candidate interleaved here, with and without quiet gaps."""
    from levelbench.workloads.run import Job, run_job_here

    r = run_job_here(Job(workload, params, budget, diagnose=False))
    c = r.comparison
    assert c is not None, r.error
    out: dict[str, Any] = {"quiet": {}, "b2b": {}, "ratio": {}, "b2b_ratio": {}}
    for name in c.names:
        out["quiet"][name] = c.measurements[name].median
        loose = [t for t in c.isolation.back_to_back.get(name, ()) if t is not None]
        out["b2b"][name] = statistics.median(loose) if loose else None
        out["ratio"][name] = c.ratio(name).to_dict()
        b2b = c.back_to_back_ratio(name)
        out["b2b_ratio"][name] = b2b.to_dict() if b2b else None
    out["baseline"] = c.baseline
    return out


def child(args: list[str], timeout: float) -> Any:
    """Run this script in a fresh process for one reference measurement; its JSON answer."""
    proc = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True, timeout=timeout)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(args)} failed:\n{proc.stderr[-2000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def run_once(workload: str, params: dict[str, Any], budget: float) -> dict[str, Any]:
    """`levelbench run`'s figures: the same library call the command makes, from this process."""
    from levelbench.workloads.run import Job, run_job

    r = run_job(Job(workload, params, budget, diagnose=False), timeout=1800)
    c = r.comparison
    assert c is not None, r.error
    return {"median": {n: c.measurements[n].median for n in c.names},
            "ratio": {n: c.ratio(n).to_dict() for n in c.names}, "baseline": c.baseline,
            "spin": c.isolation.spin, "wake_up": c.isolation.wake_up}


def candidates_of(workload: str, params: dict[str, Any]) -> list[str]:
    return child(["_names", workload, json.dumps(params)], 600)


def measure_config(key: str, reps: int, budget: float) -> None:
    workload, params = CONFIGS[key]
    names = candidates_of(workload, params)
    alone_runs: dict[str, list[float]] = {n: [] for n in names}
    runs, inproc = [], []
    started = time.time()
    for rep in range(reps):
        steps = ["alone", "run", "in-process"]
        steps = steps[rep % 3:] + steps[:rep % 3]  # rotate, so no method always goes first
        for step in steps:
            if step == "alone":
                for n in names:
                    alone_runs[n].append(child(["_alone", workload, json.dumps(params), n, str(budget)], 1800)["median"])
            elif step == "run":
                runs.append(run_once(workload, params, budget * len(names)))
            else:
                inproc.append(child(["_inprocess", workload, json.dumps(params), str(budget * len(names))], 1800))
        print(f"  [{key}] repetition {rep + 1}/{reps} done ({time.time() - started:.0f} s)", file=sys.stderr)
    report(key, names, alone_runs, runs, inproc)


def _med(values: list[float | None]) -> float | None:
    kept = [v for v in values if v is not None]
    return statistics.median(kept) if kept else None


def report(key: str, names: list[str], alone_runs: dict[str, list[float]], runs: list[dict], inproc: list[dict]) -> None:
    base = runs[0]["baseline"]
    ref = {n: _med(alone_runs[n]) for n in names}

    def pct(x: float | None, r: float | None) -> str:
        return f"{(x / r - 1) * 100:+5.1f}%" if x and r else "    -"

    print(f"\n{key}: {CONFIGS[key][0]} {CONFIGS[key][1]}, medians over {len(runs)} repetitions")
    print(f"  {'candidate':26} {'alone':>10} | {'run':>10} {'vs alone':>8} | {'in-process':>10} {'vs alone':>8}"
          f" | {'back to back':>12} {'vs alone':>8}")
    for n in names:
        run_m = _med([r["median"].get(n) for r in runs])
        q = _med([r["quiet"].get(n) for r in inproc])
        b = _med([r["b2b"].get(n) for r in inproc])
        spread = f"{min(alone_runs[n]) * 1e3:.3g}-{max(alone_runs[n]) * 1e3:.3g}"
        print(f"  {n:26} {ref[n] * 1e3:8.3g}ms | {run_m * 1e3:8.3g}ms {pct(run_m, ref[n]):>8} | "
              f"{q * 1e3 if q else float('nan'):8.3g}ms {pct(q, ref[n]):>8} | "
              f"{b * 1e3 if b else float('nan'):10.3g}ms {pct(b, ref[n]):>8}   (alone: {spread} ms)")
    print(f"  ratio to {base}:")
    # The run's own estimate is the median of per-round ratios; "alone" can only be a ratio of medians (its
    # candidates never share a round), so the run's ratio of medians stands beside it: the same estimator both ways.
    run_med = {n: _med([r["median"].get(n) for r in runs]) for n in names}
    print(f"  {'candidate':26} {'alone':>7} | {'run (95% CI, median rep)':>28} {'vs alone':>8} | "
          f"{'run, ratio of medians':>21} {'vs alone':>8} | {'in-process':>10} | {'back to back':>12}")
    for n in names:
        if n == base:
            continue
        a = ref[n] / ref[base]
        ratios = sorted(runs, key=lambda r: r["ratio"][n]["estimate"])
        mid = ratios[len(ratios) // 2]["ratio"][n]
        q = _med([r["ratio"][n]["estimate"] for r in inproc])
        b = _med([r["b2b_ratio"][n]["estimate"] if r["b2b_ratio"].get(n) else None for r in inproc])
        rm = run_med[n] / run_med[base]
        print(f"  {n:26} {a:7.3f} | {mid['estimate']:8.3f} ({mid['lower']:.3f}-{mid['upper']:.3f})        "
              f"{pct(mid['estimate'], a):>8} | {rm:21.3f} {pct(rm, a):>8} | "
              f"{q if q else float('nan'):10.3f} | {b if b else float('nan'):12.3f}")
    spins = {n: _med([r["spin"].get(n) for r in runs]) for n in names}
    wakes = {n: _med([r["wake_up"].get(n) for r in runs]) for n in names}
    print("  run: helper threads spinning after a block (ms): "
          + ", ".join(f"{n} {s * 1e3:.0f}" for n, s in spins.items() if s is not None))
    print("  run: first sample of a block over the block's median (discarded): "
          + ", ".join(f"{n} {w:+.0%}" for n, w in wakes.items() if w is not None))


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1].startswith("_"):  # a reference measurement in this fresh process
        step, workload, params = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
        if step == "_names":
            from levelbench.workloads import Skipped, load

            out: Any = [n for n, c in load(workload).candidates(**params).items() if not isinstance(c, Skipped)]
        elif step == "_alone":
            out = alone(workload, params, sys.argv[4], float(sys.argv[5]))
        else:
            out = in_process(workload, params, float(sys.argv[4]))
        print(json.dumps(out))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", action="append", choices=sorted(CONFIGS), help="configuration(s) to run")
    ap.add_argument("--reps", type=int, default=3, help="repetitions (default 3)")
    ap.add_argument("--budget", type=float, default=4.0, help="seconds per candidate per measurement")
    ap.add_argument("--list", action="store_true", help="list the configurations")
    args = ap.parse_args()
    if args.list:
        for key, (w, p) in CONFIGS.items():
            print(f"{key:18} {w} {p}")
        return
    print(f"levelbench isolation benchmark, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs, "
          f"load {os.getloadavg()[0]:.2f}")
    for key in args.only or list(CONFIGS):
        measure_config(key, args.reps, args.budget)


if __name__ == "__main__":
    main()
