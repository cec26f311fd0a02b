# source: https://github.com/ComPWA/jax-mini-benchmark/blob/03b1b4219ad136c2cef69cad5978ac93dc54d0bf/benchmarks/dot_product.py
# title: ComPWA jax-mini-benchmark's first `benchmarks/dot_product.py`: the same `timeit.repeat` of a blocked `jnp.dot` in float64, enabled through `from jax.config import config`
# established-by: maintainer ComPWA (the repository's first benchmark script, later moved to `src/jax_benchmark/dot_product.py`, case 306)
# cause: The timing is sound (ten raw repeats of five blocked calls on a device array, as case 306), but the file imports `config` from `jax.config`, which no longer imports on current JAX (`jax.config` is an object, not a module): the script stops at its imports (LB113, as in cases 167, 175 and 287). x64 is enabled through that `config`, so there is no LB108. The later version, case 306, drops the import and the x64 switch. No issue discusses the file; the reading is the catalogue's. Code: the file as stored at commit 03b1b42, unchanged.
# static: LB113
# dynamic: n/a
# inferred: LB113 (`from jax.config import config` raises on current JAX, as in cases 167, 175 and 287; not discussed)
# lines: LB113:23
# first-sight: 803cd8e 2026-12-06 py: found LB113:23; missed none; false none | notebook: found LB113:23; missed none; false none

from __future__ import annotations

import argparse
import logging
import os
import socket
import timeit

import cpuinfo
import jax.numpy as jnp
import yaml
from jax import random
from jax.config import config

config.update("jax_enable_x64", True)
logging.getLogger("jax").setLevel(logging.ERROR)
os.environ["TF_CPP_MIN_LOG_LEVEL"] = "3"


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--output",
        "-o",
        help="YAML output filename for the benchmark results",
        required=True,
        type=str,
    )
    parser.add_argument(
        "--shape",
        "-s",
        default="5000x100",
        help="Shape of the array to take a dot product of",
        type=str,
    )
    parser.add_argument(
        "--repeat",
        "-r",
        default=10,
        help="Number of repeats",
        type=int,
    )
    parser.add_argument(
        "--number",
        "-n",
        default=5,
        help="Number of times that the job should be run on a single repeat",
        type=int,
    )
    args = parser.parse_args()
    benchmarks = run_benchmark(
        shape=tuple(int(i) for i in args.shape.split("x")),
        repeat=args.repeat,
        number=args.number,
    )
    output_file = args.output
    with open(output_file, "w") as f:
        yaml.safe_dump(benchmarks, f, sort_keys=False)
    logging.info(f"Benchmark written to {output_file}")
    return 0


def run_benchmark(shape: tuple[int, int], number: int, repeat: int) -> dict:
    array = random.normal(
        key=random.PRNGKey(0),
        shape=shape,
    )

    def run() -> None:
        jnp.dot(array, array.T).block_until_ready()

    return {
        "results_in_seconds": timeit.repeat(run, number=number, repeat=repeat),
        "number_of_runs": number,
        "repeat": repeat,
        "shape": "x".join(map(str, shape)),
        "machine_info": get_machine_info(),
    }


def get_machine_info() -> dict:
    info = {
        "host_name": socket.gethostname(),
        "scheduled_cpus": sorted(os.sched_getaffinity(0)),
    }
    info.update(cpuinfo.get_cpu_info())
    return info


if __name__ == "__main__":
    raise SystemExit(main())
