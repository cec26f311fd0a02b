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
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import textwrap
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from levelbench import audit_script  # noqa: E402 - after the path above
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

READS = """\
    import time
    import jax, jax.numpy as jnp
    x = jnp.ones((64, 64))
    (x + 1).block_until_ready()
    t = time.perf_counter()
    for _ in range(5000):
        time.perf_counter()
    print("READ", (time.perf_counter() - t) / 5000)
"""
"""One clock read, plain and observed (the look for pending JAX work included): the cost per read."""

PLAIN = ("import runpy, sys, time\nsys.argv = [sys.argv[1]]\nt = time.perf_counter()\n"
         "runpy.run_path(sys.argv[0], run_name='__main__')\nprint('WALL', time.perf_counter() - t)\n")


def plain_seconds(path: Path) -> float:
    done = subprocess.run([sys.executable, "-c", PLAIN, str(path)], capture_output=True, text=True, check=True,
                          env=child_environment())
    return float(done.stdout.rsplit("WALL", 1)[1])


def observed_seconds(path: Path) -> float:
    return _audit(path).wall_s


def _audit(path: Path):
    audit = audit_script(path, output="captured")
    if audit.status != "finished":
        raise RuntimeError(f"{path.name}: {audit.status}: {audit.error}")
    return audit


def read_cost(folder: str) -> tuple[float, float]:
    """Seconds per clock read, plain and observed, with jax imported (the look for pending work runs)."""
    path = Path(folder) / "reads.py"
    path.write_text(textwrap.dedent(READS))
    plain = subprocess.run([sys.executable, str(path)], capture_output=True, text=True, check=True,
                           env=child_environment()).stdout
    observed = _audit(path).output
    return float(plain.rsplit("READ", 1)[1]), float(observed.rsplit("READ", 1)[1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--reps", type=int, default=5)
    args = parser.parse_args()
    print(f"{'script':<28} {'plain':>9} {'observed':>9} {'overhead':>9} {'noise':>7}   (medians of {args.reps}, "
          "seconds; noise: the plain runs' IQR / median, the least difference this run can tell)")
    with tempfile.TemporaryDirectory() as folder:
        for name, source in SCRIPTS.items():
            path = Path(folder) / "script.py"
            path.write_text(textwrap.dedent(source))
            plain, observed = [], []
            for _ in range(args.reps):
                plain.append(plain_seconds(path))
                observed.append(observed_seconds(path))
            p, o = statistics.median(plain), statistics.median(observed)
            quartiles = statistics.quantiles(plain, n=4)
            print(f"{name:<28} {p:>9.3f} {o:>9.3f} {o / p - 1:>+9.1%} {(quartiles[2] - quartiles[0]) / p:>7.1%}")
        plain_read, observed_read = read_cost(folder)
        print(f"one clock read: {plain_read * 1e6:.2f} us plain, {observed_read * 1e6:.2f} us observed "
              "(jax imported, one live array)")


if __name__ == "__main__":
    main()
