"""Is the static doctor linear in file size? Seconds and peak memory per generated file size.

Each size is a generated benchmark script of one shape, checked by ``levelbench doctor`` in its own
process (so peak RSS is that file's alone). The shapes are what a long generated or pasted file
holds, and what used to make a step quadratic:

- ``timers``: repeated ``t0 = time.time(); y = f(x); print(time.time() - t0)`` blocks and timed loops
  (one clock pair per 3-4 lines: thousands of findings, each with a fix);
- ``functions``: many ``def bench_k(x):`` functions, each timing with the same ``t0`` name;
- ``unread``: clocks started and never read (``s_k = time.time()``, each a new name);
- ``magics``: ``%timeit`` lines (the IPython path), one long cell;
- ``cells``: a Jupytext percent script of many short cells (``# %%``), as a notebook exported;
- ``plain``: ordinary numeric code with a timer every 20 lines (few findings).

    python benchmarks/doctor_scaling.py                     # timers, 1k..8k lines, then 1 MB and 10 MB
    python benchmarks/doctor_scaling.py --shape all --lines 1000 4000
    python benchmarks/doctor_scaling.py --mb 10 --shape plain

Prints, per size and ``--jobs``: lines, bytes, findings, then for ``levelbench doctor --jobs N FILE`` (text
output, as a user runs it) its wall-clock seconds, CPU seconds (workers included), peak memory (its own plus
its largest worker's), and CPU seconds per 1k lines (flat when linear).
On a machine shared with other jobs the wall clock can be several times the CPU time: compare CPU seconds
between runs, and take wall-clock figures (which --jobs 2 is about) only on a quiet machine.

    python benchmarks/doctor_scaling.py --lines --mb 10 --shape plain timers --jobs 1 2   # issue 15's goal

``--phases`` prints instead where one part's time goes: a 10,000-line script of each shape (the length
the doctor checks at once in a long file) through each step of `_engine.diagnose_now`, in this process, without
fix edits (as the command's report runs), the median of three; then the CPU per line that 10 s for 10 MB
leaves on this machine's cores.

    python benchmarks/doctor_scaling.py --phases --shape plain timers
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

HEADER = """import time
import numpy as np
import jax
import jax.numpy as jnp


@jax.jit
def f(x):
    return x * 2


x = jnp.ones((10, 10))
"""

_BLOCKS = {
    "timers": lambda k: (
        "t0 = time.time()\ny = f(x)\nprint(time.time() - t0)\nfor i in range(10):\n"
        "    t1 = time.perf_counter()\n    z = jnp.dot(x, x)\n    print('dt', time.perf_counter() - t1)\n"
    ),
    "functions": lambda k: (
        f"def bench_{k}(x):\n    t0 = time.perf_counter()\n    y = f(x + {k})\n"
        f"    return time.perf_counter() - t0\n\n\nprint(bench_{k}(x))\n"
    ),
    "unread": lambda k: f"s_{k} = time.time()\nf(x)\n",
    "magics": lambda k: f"y_{k} = f(x)\n%timeit f(x)\n",
    "cells": lambda k: f"# %%\ny_{k} = f(x)\n%timeit f(x)\nt0 = time.time()\nf(x)\nprint(time.time() - t0)\n",
    "plain": lambda k: (
        f"a_{k} = np.arange({k % 97 + 3}) * 2.0\nb_{k} = a_{k}.reshape(-1, 1) @ a_{k}.reshape(1, -1)\n"
        f"def helper_{k}(v):\n    s = 0.0\n    for item in v:\n        s += float(item)\n    return s\n\n\n"
        f"c_{k} = helper_{k}(a_{k})\nif c_{k} > 10:\n    print('big', c_{k})\nelse:\n    print('small')\n"
        f"d_{k} = [v * 2 for v in range(5)]\ne_{k} = {{'k': d_{k}, 'n': len(d_{k})}}\n"
        + (f"t0 = time.perf_counter()\nr_{k} = f(x)\nr_{k}.block_until_ready()\nprint(time.perf_counter() - t0)\n"
           if k % 2 == 0 else "")
    ),
}
SHAPES = tuple(_BLOCKS)


def generate(shape: str, lines: int | None = None, size: int | None = None) -> str:
    """A script of ``shape`` with about ``lines`` lines (or ``size`` bytes)."""
    parts = [HEADER]
    count, length, k = HEADER.count("\n"), len(HEADER), 0
    while (lines is not None and count < lines) or (size is not None and length < size):
        block = _BLOCKS[shape](k)
        parts.append(block)
        count += block.count("\n")
        length += len(block)
        k += 1
    return "".join(parts)


# The command as a user runs it (text output, to a pipe), in a process of its own: its wall clock, its CPU time
# and its workers', and its peak memory plus its largest worker's (an upper bound on what they held at once;
# with --jobs 2 there is one worker).
_CHILD = """
import json, resource, runpy, sys, time
sys.argv = ["levelbench", "doctor", "--no-color", "--jobs", sys.argv[2], sys.argv[1]]
t = time.perf_counter()
out, sys.stdout = sys.stdout, open("/dev/null", "w")
try:
    runpy.run_module("levelbench", run_name="__main__")
except SystemExit:
    pass
seconds = time.perf_counter() - t
sys.stdout = out
own, workers = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
cpu = own.ru_utime + own.ru_stime + workers.ru_utime + workers.ru_stime
print(json.dumps({"seconds": seconds, "cpu": cpu, "peak": (own.ru_maxrss + workers.ru_maxrss) * 1024}))
"""


def measure(path: Path, jobs: int) -> dict:
    """``levelbench doctor --jobs JOBS PATH``: seconds, CPU seconds, peak memory; then the findings it reports."""
    run = [sys.executable, "-c", _CHILD, str(path), str(jobs)]
    result = json.loads(subprocess.run(run, capture_output=True, text=True, check=True).stdout.strip().splitlines()[-1])
    run = [sys.executable, "-m", "levelbench", "doctor", "--format", "concise", "--jobs", str(jobs), str(path)]
    concise = subprocess.run(run, capture_output=True, text=True).stdout.splitlines()
    findings = [line for line in concise if ": LB" in line]
    return {**result, "findings": len(findings), "lb100": [line for line in findings if ": LB100 " in line][:3]}


def phases(shape: str, lines: int = 10_000, repeats: int = 3) -> None:
    """Milliseconds per step of checking one ``lines``-line script of ``shape``: parse, index, analysis, rules, free."""
    import ast
    import gc
    import statistics
    import time

    from levelbench.doctor import _engine
    from levelbench.doctor._context import Context
    from levelbench.doctor._program import Program
    from levelbench.doctor._tree import TreeIndex

    text = generate(shape, lines=lines)
    count = text.count("\n")
    steps: dict[str, list[float]] = {}
    last = [0.0]

    def lap(name: str) -> None:
        """Record the time since the last lap as step ``name``."""
        now = time.perf_counter()
        steps.setdefault(name, []).append(now - last[0])
        last[0] = now

    was_enabled = gc.isenabled()
    gc.disable()  # as the doctor checks a part (the youngest generation is collected after each)
    try:
        for _ in range(repeats):
            last[0] = time.perf_counter()
            tree = ast.parse(text)
            lap("  of which ast.parse")
            TreeIndex(tree)
            lap("  of which the tree index")
            tree = None
            last[0] = time.perf_counter()
            program = Program.from_python("bench.py", text)
            lap("program (parse, index, lines)")
            context = Context.build(program, edits=False)
            lap("context (names, facts, kinds, regions)")
            findings = 0
            for code, check in _engine.rule_checks().items():
                findings += len(list(check(context)))
                lap(f"rule {code}")
            context = program = None
            gc.collect(0)
            lap("freeing the part")
    finally:
        if was_enabled:
            gc.enable()
    medians = {name: statistics.median(times) for name, times in steps.items()}
    total = sum(t for name, t in medians.items() if not name.startswith("  "))
    print(f"{shape}: {count} lines, {findings} findings, {1000 * total:.0f} ms ({1e6 * total / count:.1f} us per line)")
    steps = ["program (parse, index, lines)", "  of which ast.parse", "  of which the tree index",
             "context (names, facts, kinds, regions)", "freeing the part"]  # the program, then what it is made of
    rules = sorted((name for name in medians if name.startswith("rule")), key=lambda name: -medians[name])
    for name in [*steps, *rules]:
        t = medians[name]
        if name.startswith("rule") and t < 0.01 * total:
            continue
        print(f"  {name:<42} {1000 * t:>7.1f} ms {100 * t / total:>5.1f}%")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count() or 1
    per_line = 10.0 * cores / (10_000_000 / (len(text) / count))
    print(f"  10 s for 10 MB of this shape on {cores} core(s) leaves {1e6 * per_line:.1f} us of CPU per line "
          f"(all of it for the parts: none for starting, sending or printing)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--shape", choices=[*SHAPES, "all"], nargs="+", default=["timers"])
    parser.add_argument("--lines", type=int, nargs="*", default=[1000, 2000, 4000, 8000])
    parser.add_argument("--mb", type=float, nargs="*", default=[1, 10], help="file sizes in MB, after --lines")
    parser.add_argument("--jobs", type=int, nargs="*", default=[1, 2], help="levelbench doctor --jobs, each in turn")
    parser.add_argument("--phases", action="store_true", help="where one 10,000-line part's time goes, per step")
    args = parser.parse_args()
    shapes = SHAPES if "all" in args.shape else tuple(args.shape)
    if args.phases:
        for shape in shapes:
            phases(shape)
        return
    print(
        f"{'shape':<10} {'jobs':>4} {'lines':>8} {'bytes':>10} {'findings':>9} {'seconds':>8} {'CPU s':>8} {'peak MB':>8} "
        f"{'CPU s/1k':>10}"
    )
    with tempfile.TemporaryDirectory() as tmp:
        for shape in shapes:
            suffix = ".ipy" if shape in ("magics", "cells") else ".py"
            sizes = [("lines", n) for n in args.lines] + [("size", int(mb * 1_000_000)) for mb in args.mb]
            for kind, n in sizes:
                text = generate(shape, **{kind: n})
                path = Path(tmp) / f"{shape}_{kind}_{n}{suffix}"
                path.write_text(text)
                lines = text.count("\n")
                for jobs in args.jobs:
                    result = measure(path, jobs)
                    print(
                        f"{shape:<10} {jobs:>4} {lines:>8} {len(text):>10} {result['findings']:>9} "
                        f"{result['seconds']:>8.2f} {result['cpu']:>8.2f} {result['peak'] / 1e6:>8.0f} "
                        f"{1000 * result['cpu'] / lines:>10.3f}" + (f"  LB100: {result['lb100']}" if result["lb100"] else ""),
                        flush=True,
                    )


if __name__ == "__main__":
    main()
