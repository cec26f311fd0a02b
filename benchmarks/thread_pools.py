"""Why frameworks slow each other down in one process: the measurements behind docs/design/isolation.md.

Float32 ``x @ y`` (n = 1000 by default) in NumPy (OpenBLAS), jitted JAX (XLA) and PyTorch, and
levelbench.nn's GRU kernel. Prints:

1. the threads each library leaves in the process, and how long they keep running (state "R"
   in /proc) and how much CPU they burn after one call has returned;
2. the three matmuls timed back to back in one process, with the libraries' spin settings at
   their defaults and turned off one by one (``OPENBLAS_THREAD_TIMEOUT=4``, ``OMP_WAIT_POLICY=PASSIVE``),
   each in a fresh process, against each alone in its own process;
3. the same three in one process with a quiet gap before each candidate's turn (wait until no
   helper thread runs, then discard one warm-up call): what levelbench does;
4. what a pause costs: each library alone, calls right after a 0.5 s pause against the same
   calls without one (paired, in one process), by position after the pause;
5. whether levelbench.nn's GRU kernel slows what runs after it: torch.nn.GRU right after it, in
   one process, against each alone.

    python benchmarks/thread_pools.py [--n 1000] [--seconds 5]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import time
from collections import Counter
from typing import Any, Callable

import numpy as np

NAMES = ("numpy", "jax", "torch")


def build(name: str, n: int) -> Callable[[], Any]:
    rng = np.random.default_rng(0)
    x = rng.standard_normal((n, n)).astype(np.float32)
    y = rng.standard_normal((n, n)).astype(np.float32)
    if name == "numpy":
        return lambda: np.dot(x, y)
    if name == "jax":
        import jax
        import jax.numpy as jnp

        jx, jy = jax.device_put(x), jax.device_put(y)
        f = jax.jit(jnp.dot)
        return lambda: f(jx, jy).block_until_ready()
    if name == "torch":
        import torch

        tx, ty = torch.from_numpy(x), torch.from_numpy(y)
        return lambda: torch.mm(tx, ty)
    if name == "levelbench-gru":
        import jax
        import jax.numpy as jnp

        from levelbench.nn import GRU

        gru = GRU(input_size=6, hidden_size=200, num_layers=2)
        params = gru.init(jax.random.PRNGKey(0))
        xs = jnp.asarray(rng.standard_normal((50, 8, 6)).astype(np.float32))
        f = jax.jit(gru.apply)
        return lambda: jax.block_until_ready(f(params, xs))
    if name == "torch-gru":
        import torch

        model = torch.nn.GRU(6, 200, 2).eval()
        xs = torch.from_numpy(rng.standard_normal((50, 8, 6)).astype(np.float32))

        def forward() -> Any:
            with torch.inference_mode():
                return model(xs)

        return forward
    raise ValueError(name)


def helper_cpu_ns() -> int:
    """CPU time (ns) of every thread of this process but the calling one."""
    from threading import get_native_id

    me, total = get_native_id(), 0
    for tid in os.listdir("/proc/self/task"):
        if int(tid) == me:
            continue
        try:
            with open(f"/proc/self/task/{tid}/schedstat") as f:
                total += int(f.read().split()[0])
        except OSError:
            pass
    return total


def thread_names() -> Counter:
    names = Counter()
    for tid in os.listdir("/proc/self/task"):
        try:
            with open(f"/proc/self/task/{tid}/comm") as f:
                names[f.read().strip()] += 1
        except OSError:
            pass
    return names


def spin_after_return(n: int) -> None:
    from levelbench._measuring.threads import pools, wait_until_quiet

    print("\n1. helper threads after one call (per library, in one process, in this order)")
    before = thread_names()
    for name in (*NAMES, "levelbench-gru"):
        call = build(name, n)
        call(), call()
        time.sleep(0.5)
        call()
        cpu0 = helper_cpu_ns()
        wait = wait_until_quiet([os.getpid()], exclude_caller=True)
        time.sleep(0.3)  # CPU counters of a running thread lag by a tick: read them once it has stopped
        burned = (helper_cpu_ns() - cpu0) / 1e6
        now = thread_names()
        new = {k: v - before.get(k, 0) for k, v in now.items() if v > before.get(k, 0)}
        before = now
        print(f"   {name:15} running {wait.seconds * 1e3:6.0f} ms after the call returned, "
              f"{burned:6.1f} ms of CPU; new threads: {dict(new) or '-'}")
    print("   pools (threadpoolctl, /proc):", "; ".join(pools()))


def back_to_back(n: int, seconds: float, quiet: bool, names: tuple[str, ...] = NAMES) -> dict[str, float]:
    """In this process: the candidates round-robin, one call each (or after a quiet gap)."""
    from levelbench._measuring.threads import wait_until_quiet

    calls = {k: build(k, n) for k in names}
    for c in calls.values():
        c(), c()
    times: dict[str, list[float]] = {k: [] for k in names}
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        for k, c in calls.items():
            if quiet:
                wait_until_quiet([os.getpid()], exclude_caller=True)
                c()
            t0 = time.perf_counter()
            c()
            times[k].append(time.perf_counter() - t0)
    return {k: statistics.median(v) for k, v in times.items()}


def alone(name: str, n: int, seconds: float) -> float:
    call = build(name, n)
    call(), call()
    times = []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def after_pause(name: str, n: int, seconds: float, pause: float = 0.5, k: int = 6) -> tuple[float, list[float]]:
    call = build(name, n)
    call(), call()
    first, steady = [], []
    end = time.perf_counter() + seconds
    while time.perf_counter() < end:
        time.sleep(pause)
        row = []
        for _ in range(2 * k):
            t0 = time.perf_counter()
            call()
            row.append(time.perf_counter() - t0)
        first.append(row[:k])
        steady += row[k:]
    base = statistics.median(steady)
    return base, [float(np.median([r[i] for r in first])) / base - 1 for i in range(k)]


def child(args: list[str], env: dict[str, str] | None = None) -> Any:
    out = subprocess.run([sys.executable, __file__, *args], capture_output=True, text=True,
                         env={**os.environ, **(env or {})}, timeout=900)
    if out.returncode:
        raise RuntimeError(out.stderr[-2000:])
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    if len(sys.argv) > 1 and sys.argv[1].startswith("_"):
        step, n, seconds = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
        if step == "_alone":
            print(json.dumps(alone(sys.argv[4], n, seconds)))
        elif step == "_pause":
            print(json.dumps(after_pause(sys.argv[4], n, seconds)))
        elif step == "_gru":
            print(json.dumps(back_to_back(n, seconds, quiet=False, names=("levelbench-gru", "torch-gru"))))
        else:
            print(json.dumps(back_to_back(n, seconds, quiet=step == "_quiet")))
        return
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=1000)
    ap.add_argument("--seconds", type=float, default=5.0)
    args = ap.parse_args()
    n, s = args.n, str(args.seconds)
    print(f"thread pools, float32 n={n}, {time.strftime('%Y-%m-%d %H:%M')}, {os.cpu_count()} CPUs")
    spin_after_return(n)

    ref = {k: child(["_alone", str(n), s, k]) for k in NAMES}
    print("\n2. ms per call: alone in its own process, and the three back to back in one process")
    print(f"   {'':44}" + "".join(f"{k:>9}" for k in NAMES))
    print(f"   {'alone (each in a fresh process)':44}" + "".join(f"{ref[k] * 1e3:9.2f}" for k in NAMES))
    for label, env in (("back to back, defaults", {}),
                       ("back to back, OPENBLAS_THREAD_TIMEOUT=4", {"OPENBLAS_THREAD_TIMEOUT": "4"}),
                       ("back to back, OMP_WAIT_POLICY=PASSIVE", {"OMP_WAIT_POLICY": "PASSIVE"}),
                       ("back to back, both", {"OPENBLAS_THREAD_TIMEOUT": "4", "OMP_WAIT_POLICY": "PASSIVE"})):
        t = child(["_b2b", str(n), s], env)
        print(f"   {label:44}" + "".join(f"{t[k] * 1e3:9.2f}" for k in NAMES))
    t = child(["_quiet", str(n), s])
    print(f"\n3. {'quiet gaps, defaults (what levelbench does)':44}" + "".join(f"{t[k] * 1e3:9.2f}" for k in NAMES))

    print("\n4. after a 0.5 s pause, each alone: calls by position, over the same calls without a pause")
    for k in NAMES:
        base, rel = child(["_pause", str(n), s, k])
        print(f"   {k:8} steady {base * 1e3:7.2f} ms: " + " ".join(f"{r * 100:+4.0f}%" for r in rel))

    print("\n5. torch.nn.GRU (2 layers, hidden 200, seq 50, batch 8) right after levelbench.nn's GRU kernel")
    alone_gru = {k: child(["_alone", str(n), s, k]) for k in ("levelbench-gru", "torch-gru")}
    pair = child(["_gru", str(n), s])
    for k in ("levelbench-gru", "torch-gru"):
        print(f"   {k:15} alone {alone_gru[k] * 1e3:6.2f} ms, back to back {pair[k] * 1e3:6.2f} ms "
              f"({(pair[k] / alone_gru[k] - 1) * 100:+.0f}%)")


if __name__ == "__main__":
    main()
