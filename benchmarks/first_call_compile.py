"""What the first call of a JAX library function costs against the second, at the real cases' sizes.

Eager JAX compiles each operation (or each function JAX itself jits, such as the `jax.random` samplers) for a new
shape and dtype on its first call and keeps the executable, as `jax.jit` does for the user's functions. The static
doctor's LB103 (compile-in-timing) is about the user's jitted functions; this benchmark grounds the decision on
whether it should also cover the first timed call of JAX's own functions (docs/notes/doctor-accuracy.md, "LB103 and
JAX's own functions").

Each workload runs in fresh processes (the first call of a process is what a script times), the median of
``--processes`` of them, with and without an unrelated compile first (``+warm``: the process's compiler set up, so
the first call pays only its own compile):

    python benchmarks/first_call_compile.py                  # CPU, 3 processes per row
    python benchmarks/first_call_compile.py --processes 5

Prints per workload: the first call, the second, the best of three more, and first/second.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys

# name -> setup code defining `run`, the call timed (its inputs built and waited for before any timing)
WORKLOADS = {
    "random.normal shape (1,)  [cases 043, 197]": (
        "from jax import random\nkey = random.PRNGKey(0)\nrun = lambda: random.normal(key, shape=(1,))"
    ),
    "random.normal (1000, 1000)": (
        "from jax import random\nkey = random.PRNGKey(0)\nrun = lambda: random.normal(key, shape=(1000, 1000))"
    ),
    "jnp.dot(x, x) 1000x1000  [case 023]": (
        "import jax.numpy as jnp\nfrom jax import random\n"
        "x = random.uniform(random.key(0), (1000, 1000)).block_until_ready()\nrun = lambda: jnp.dot(x, x)"
    ),
    "jnp.dot(x, x.T) 3000x3000  [case 018]": (
        "import jax.numpy as jnp\nfrom jax import random\n"
        "x = random.normal(random.key(0), (3000, 3000)).block_until_ready()\nrun = lambda: jnp.dot(x, x.T)"
    ),
    "jnp.dot float64 256x256  [case 034]": (
        "import jax\njax.config.update('jax_enable_x64', True)\nimport jax.numpy as jnp\n"
        "a = jnp.ones((256, 256)).block_until_ready()\nrun = lambda: jnp.dot(a, a)"
    ),
    "jnp.sin 1000  (one primitive)": (
        "import jax.numpy as jnp\nx = jnp.ones(1000).block_until_ready()\nrun = lambda: jnp.sin(x)"
    ),
}

_CHILD = """
import json, time
import jax
{setup}
if {warm}:
    jax.jit(lambda a: a * 2 + 1)(jax.numpy.ones(7)).block_until_ready()  # another program compiled first
times = []
for _ in range(5):
    start = time.perf_counter()
    jax.block_until_ready(run())
    times.append(time.perf_counter() - start)
print(json.dumps(times))
"""


def _one_process(setup: str, warm: bool) -> list[float]:
    env = {**os.environ, "JAX_PLATFORMS": os.environ.get("JAX_PLATFORMS", "cpu")}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD.format(setup=setup, warm=warm)], capture_output=True, text=True, env=env
    )
    if done.returncode:
        raise SystemExit(f"a workload failed (expected it to print its times), got:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--processes", type=int, default=3, help="fresh processes per row (the median is printed)")
    args = parser.parse_args()
    version = subprocess.run([sys.executable, "-c", "import jax; print(jax.__version__, jax.default_backend())"],
                             capture_output=True, text=True).stdout.strip()
    print(f"jax {version}; median of {args.processes} fresh processes per row; ms")
    print(f"{'workload':46s} {'first':>9s} {'second':>9s} {'steady':>9s} {'first/second':>13s}")
    for name, setup in WORKLOADS.items():
        for warm in (False, True):
            runs = [_one_process(setup, warm) for _ in range(args.processes)]
            first = statistics.median(r[0] for r in runs) * 1e3
            second = statistics.median(r[1] for r in runs) * 1e3
            steady = statistics.median(min(r[2:]) for r in runs) * 1e3
            label = name + (" +warm" if warm else "")
            print(f"{label:46s} {first:9.2f} {second:9.2f} {steady:9.2f} {first / second:12.1f}x")


if __name__ == "__main__":
    main()
