"""Does explain keep its budget? Every runnable corpus case, each in its own process.

``levelbench.explain(fn, *args, budget=B)`` promises to return within about ``B`` seconds after
the function's own first call (its trace and compile, which explain cannot avoid). For every
runnable copy in tests/doctor_cases/real/ (``*_run.py``, the same cases as doctor_accuracy.py's
explain part), each function it names is explained in a fresh process (JAX flags are global), and
this prints, per function: the budget, the first call's seconds (as explain measured it: telling
the framework, then the first call as given), explain's total, the ratio total / (budget + first
call), and what was skipped for time. Done when no case exceeds budget + first call by more than 20%.

    python benchmarks/explain_budget.py                 # budget 10 (explain's default)
    python benchmarks/explain_budget.py --budget 5 --json explain_budget.json
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "benchmarks"))

from doctor_accuracy import load_corpus, read_header  # noqa: E402  (the corpus reader, one home)

TOLERANCE = 1.2


def explain_one(run_path: Path, budget: float) -> dict:
    """In a child process: import a runnable copy and explain each of its functions, timed."""
    import levelbench
    from levelbench._probing.examples import example_call, example_calls

    spec = importlib.util.spec_from_file_location(run_path.stem, run_path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module
    spec.loader.exec_module(module)
    out = []
    for name in (n.strip() for n in read_header(run_path)["explain"].split(",")):
        entry: dict = {"function": name, "error": None}
        args, kwargs, _ = example_call(module, name)  # the convention levelbench explain reads
        calls = example_calls(module, name)
        extra = {**kwargs, **({"calls": calls} if calls is not None else {})}
        t0 = time.perf_counter()
        try:
            d = levelbench.explain(getattr(module, name), *args, budget=budget, **extra)
            entry["total"] = time.perf_counter() - t0
            record = d.measured.get("budget", {})
            entry["first_call"] = record.get("first_call", 0.0)
            entry["skipped_for_time"] = [s["what"] for s in record.get("skipped_for_time", [])]
            entry["trials_skipped_for_time"] = [t["finding"] for t in d.measured.get("fixes", [])
                                                if t.get("reason", "").startswith("explain's budget")]
            entry["probe_seconds"] = d.measured.get("probe_seconds", {})
            entry["estimates"] = record.get("estimates", {})
        except Exception as e:  # a function that does not run is a result too (explain raises early)
            entry["total"] = time.perf_counter() - t0
            entry["error"] = f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}"
        out.append(entry)
    return {"functions": out}


def run(budget: float, timeout: float) -> list[dict]:
    rows = []
    for case in load_corpus():
        if case.run_path is None:
            continue
        try:
            child = subprocess.run([sys.executable, str(Path(__file__).resolve()), "--run-one", str(case.run_path),
                                    "--budget", str(budget)], capture_output=True, text=True, timeout=timeout, cwd=ROOT)
            last = child.stdout.strip().splitlines()[-1] if child.stdout.strip() else ""
            result = json.loads(last) if last.startswith("{") else {"functions": [], "crash": child.stderr[-300:]}
        except subprocess.TimeoutExpired:
            result = {"functions": [], "crash": f"timed out after {timeout:.0f} s"}
        new = [{"case": case.name, **fn} for fn in result["functions"]]
        if result.get("crash"):
            crash = result["crash"].strip()
            new.append({"case": case.name, "function": "-", "total": float("nan"),
                        "error": "child: " + (crash.splitlines()[-1] if crash else "crashed")})
        for row in new:
            print_row(row, budget)
        rows += new
    return rows


def over(row: dict, budget: float) -> float | None:
    """total / (budget + first call), None where explain raised before the probes."""
    if row.get("error") or "first_call" not in row:
        return None
    return row["total"] / (budget + row["first_call"])


def print_row(row: dict, budget: float) -> None:
    ratio = over(row, budget)
    if ratio is None:
        print(f"  {row['case'][:40]:40} {row['function'][:14]:14} {'':>6} {'':>7} {row['total']:7.1f}   "
              f"not timed: {row.get('error')}", flush=True)
        return
    skipped = ", ".join(row["skipped_for_time"] + [f"trial {c}" for c in row["trials_skipped_for_time"]])
    flag = "  EXCEEDS" if ratio > TOLERANCE else ""
    print(f"  {row['case'][:40]:40} {row['function'][:14]:14} {budget:6g} {row['first_call']:7.2f} {row['total']:7.1f} "
          f"{ratio:6.2f}{flag}" + (f"   skipped for time: {skipped}" if skipped else ""), flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--budget", type=float, default=10.0, help="explain's budget in seconds (default 10)")
    parser.add_argument("--timeout", type=float, default=600.0, help="seconds per runnable copy before giving up")
    parser.add_argument("--json", metavar="PATH", help="write every row to this file")
    parser.add_argument("--run-one", metavar="RUN_PY", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.run_one:
        print(json.dumps(explain_one(Path(args.run_one), args.budget)))
        return
    print(f"explain's budget on the runnable corpus copies: budget {args.budget:g} s; ratio = total / (budget + "
          f"first call), done when every ratio <= {TOLERANCE}")
    print(f"  {'case':40} {'function':14} {'budget':>6} {'first':>7} {'total':>7} {'ratio':>6}")
    rows = run(args.budget, args.timeout)
    ratios = [r for r in (over(row, args.budget) for row in rows) if r is not None]
    exceed = [row for row in rows if (over(row, args.budget) or 0) > TOLERANCE]
    print(f"\n{len(ratios)} function(s) timed, {len(rows) - len(ratios)} not (raised before the probes or crashed); "
          f"worst ratio {max(ratios, default=float('nan')):.2f}; {len(exceed)} exceed budget + first call by more "
          f"than {100 * (TOLERANCE - 1):.0f}%: " + ("DONE" if not exceed else
                                                     ", ".join(f"{r['case']}::{r['function']}" for r in exceed)))
    if args.json:
        Path(args.json).write_text(json.dumps({"budget": args.budget, "rows": rows}, indent=1, default=str))
        print(f"wrote {args.json}")


if __name__ == "__main__":
    main()
