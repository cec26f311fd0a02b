# source: https://github.com/ComPWA/jax-mini-benchmark/blob/1f7ff57d108b42cd589ab942007a1c05cbc5e0f6/src/jax_benchmark/dot_product.py
# title: ComPWA jax-mini-benchmark `src/jax_benchmark/dot_product.py`: `timeit.repeat(run, number=5, repeat=10)` of a blocked `jnp.dot(array, array.T)`, every raw repeat written to YAML for a comparison over CPU core counts (`taskset`)
# established-by: maintainer ComPWA (the package's benchmark command, run by `benchmark-jax.sh` per core count and plotted by `visualize-benchmark.ipynb`)
# cause: Correct benchmark code. The array is made on the device before the timing; every timed call waits (`.block_until_ready()` inside `run`); `timeit.repeat` takes ten repeats of five calls and all ten raw totals are written out, so no single sample stands for the figure (no LB104) and the spread is kept. The first repeat holds `jnp.dot`'s own first-call compile, which is JAX's (case 197's reading, no LB103) and stays visible as one repeat among ten rather than being folded into a mean. The eager `jnp.dot` is the benchmark's subject (one operation), not a loop of dispatches. Code: the file as stored at commit 1f7ff57, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 803cd8e 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

from __future__ import annotations

import argparse
import logging
import os
import socket
import timeit

import cpuinfo
import yaml


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
    import jax.numpy as jnp
    from jax import random

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
