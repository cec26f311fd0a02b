"""What ``levelbench doctor --run`` costs the script it runs: its run time plain and observed, side by side.

Each script below is run ``--reps`` times each way, alternating: plain (``runpy`` in a fresh Python, as
``python SCRIPT.py`` runs it) and under `levelbench.audit_script`. Both times are the script's own run,
measured in its process around ``runpy.run_path`` (the interpreter's start and levelbench's set-up apart,
jax's import inside both), and the medians are compared. Issue #27 asks for <= 5%.

    python benchmarks/doctor_run_overhead.py            # 5 reps
    python benchmarks/doctor_run_overhead.py --reps 9

The shapes are the corpus's: the seed question's two single samples (smaller, float32), a timed loop of
blocked jitted calls (1,000 clock reads, each followed by a look for pending JAX work), ``timeit.repeat``
over NumPy. An unblocked loop is left out on purpose: there the wait after each read is the script's own
work, finished earlier, not overhead.

The medians of whole runs cannot tell 5% apart on a shared machine (their noise is larger), so each script's
overhead is also bounded from what the instrumentation did in it (`ScriptAudit.instrumented`: clock reads,
looks for pending JAX work, counted JAX dispatches, compile events, torch module calls) times the unit cost
of each, measured here plain against observed in loops of thousands (``units``): a sum of counts times
costs, as a share of the script's plain time. It leaves out what has no count (the garbage collector's
extra work on the records, the waiter thread): the unit costs are measured in loops long enough to hold
their share of both.
"""

from __future__ import annotations

import argparse
import importlib.util
import statistics
import subprocess
import sys
import tempfile
import textwrap
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from levelbench import audit_script  # noqa: E402 - after the path above
from levelbench._auditing._observer import BACKEND_EVENT, Observer  # noqa: E402
from levelbench._values.settings import child_environment  # noqa: E402

SCRIPTS = {
    "seed 002 (n=1000)": """\
        import jax.numpy as jnp
        from jax import random
        import numpy as np
        import time
        size = 1000
        key = random.PRNGKey(0)
        x = random.normal(key, (size, size), dtype=jnp.float32)
        start = time.time()
        test = jnp.dot(x, x.T).block_until_ready()
        print('Time of jnp: {}s'.format(time.time() - start))
        x2 = np.random.normal(size=(size, size))
        start = time.time()
        test2 = np.dot(x2, x2.T)
        print('Time of np: {}s'.format(time.time() - start))
    """,
    "blocked loop, 500 samples": """\
        import time
        import jax, jax.numpy as jnp
        f = jax.jit(lambda a: jnp.tanh(a @ a))
        x = jnp.ones((256, 256))
        f(x).block_until_ready()
        times = []
        for _ in range(500):
            t0 = time.perf_counter()
            f(x).block_until_ready()
            times.append(time.perf_counter() - t0)
        print(min(times))
    """,
    "timeit.repeat, NumPy": """\
        import timeit
        import numpy as np
        a = np.ones((100, 100))
        print(min(timeit.repeat(lambda: a @ a, number=50, repeat=20)))
    """,
}

UNITS = {
    "clock_reads": """\
        import time
        import jax, jax.numpy as jnp
        x = jnp.ones((64, 64))
        (x + 1).block_until_ready()
        t = time.perf_counter()
        for _ in range(N // 2):
            t0 = time.perf_counter()
            d = time.perf_counter() - t0
        print("UNIT", (time.perf_counter() - t) / N)
    """,
    "dispatches": """\
        import time
        import jax, jax.numpy as jnp
        x = jnp.ones(8)
        jnp.sin(x).block_until_ready()
        t = time.perf_counter()
        for _ in range(N):
            jnp.sin(x)
        jnp.sin(x).block_until_ready()
        print("UNIT", (time.perf_counter() - t) / N)
    """,
    "module_calls": """\
        import time
        import torch
        layer = torch.nn.Linear(4, 4)
        x = torch.ones(2, 4)
        layer(x)
        t = time.perf_counter()
        for _ in range(N):
            layer(x)
        print("UNIT", (time.perf_counter() - t) / N)
    """,
}
"""The cost of one instrumented thing, plain against observed, per kind of `ScriptAudit.instrumented`: a clock
read (read in pairs and subtracted, the look for pending JAX work after each included: ``pending_checks`` are
priced in it), a counted JAX dispatch, a torch module call. A compile event's cost (a tuple appended beside a
compilation of milliseconds) is measured in this process."""
UNIT_CALLS = 20_000

PLAIN = ("import runpy, sys, time\nsys.argv = [sys.argv[1]]\nt = time.perf_counter()\n"
         "runpy.run_path(sys.argv[0], run_name='__main__')\nprint('WALL', time.perf_counter() - t)\n")


def plain_seconds(path: Path) -> float:
    done = subprocess.run([sys.executable, "-c", PLAIN, str(path)], capture_output=True, text=True, check=True,
                          env=child_environment())
    return float(done.stdout.rsplit("WALL", 1)[1])


def _audit(path: Path):
    audit = audit_script(path, output="captured")
    if audit.status != "finished":
        raise RuntimeError(f"{path.name}: {audit.status}: {audit.error}")
    return audit


def unit_costs(folder: str) -> dict[str, float]:
    """Seconds each instrumented thing adds, observed minus plain (the median of three tries each way)."""
    costs: dict[str, float] = {}
    for kind, source in UNITS.items():
        if kind == "module_calls" and importlib.util.find_spec("torch") is None:
            continue
        path = Path(folder) / f"unit_{kind}.py"
        path.write_text(f"N = {UNIT_CALLS}\n" + textwrap.dedent(source))
        plain, observed = [], []
        for _ in range(3):
            plain.append(float(subprocess.run([sys.executable, str(path)], capture_output=True, text=True, check=True,
                                              env=child_environment()).stdout.rsplit("UNIT", 1)[1]))
            observed.append(float(_audit(path).output.rsplit("UNIT", 1)[1]))
        costs[kind] = max(statistics.median(observed) - statistics.median(plain), 0.0)
    costs["compile_events"] = _event_cost()
    return costs


def _event_cost() -> float:
    observer = Observer("unused.py")
    start = time.perf_counter()
    for _ in range(UNIT_CALLS):
        observer._on_event(BACKEND_EVENT, 0.01, fun_name="f")
    return (time.perf_counter() - start) / UNIT_CALLS


def bound(instrumented: dict[str, int], costs: dict[str, float]) -> float:
    """Seconds the instrumentation cost a run: each count times its unit cost (a pending check is in a read's)."""
    return sum(count * costs.get(kind, 0.0) for kind, count in instrumented.items())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        costs = unit_costs(folder)
        print("unit costs, observed minus plain: " + ", ".join(f"{k} {v * 1e6:.2f} us" for k, v in costs.items()))
        print(f"{'script':<28} {'plain':>9} {'observed':>9} {'overhead':>9} {'noise':>7} {'bound':>7}   (medians of "
              f"{args.reps}, seconds; noise: the plain runs' IQR / median, the least difference the medians can tell; "
              "bound: counts x unit costs / plain)")
        for name, source in SCRIPTS.items():
            path = Path(folder) / "script.py"
            path.write_text(textwrap.dedent(source))
            plain, observed, counted = [], [], {}
            for _ in range(args.reps):
                plain.append(plain_seconds(path))
                audit = _audit(path)
                observed.append(audit.wall_s)
                counted = audit.instrumented
            p, o = statistics.median(plain), statistics.median(observed)
            quartiles = statistics.quantiles(plain, n=4)
            print(f"{name:<28} {p:>9.3f} {o:>9.3f} {o / p - 1:>+9.1%} {(quartiles[2] - quartiles[0]) / p:>7.1%} "
                  f"{bound(counted, costs) / p:>7.2%}   "
                  + ", ".join(f"{k} {v:,}" for k, v in counted.items() if v))


if __name__ == "__main__":
    main()
