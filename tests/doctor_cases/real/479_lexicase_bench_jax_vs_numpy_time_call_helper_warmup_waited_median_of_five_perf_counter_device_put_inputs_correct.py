# source: https://github.com/ryanboldi/lexicase/blob/c7826cb70d3c146ebbbd6c5a0eebaaf73745eb42/benchmarks/bench_jax_vs_numpy.py
# title: lexicase's `benchmarks/bench_jax_vs_numpy.py`: four lexicase selection methods timed with NumPy, JAX on the CPU and JAX on the GPU over five population sizes, each in a `time_call` helper that makes one warm-up call, waits on JAX results, and reports the median of five `perf_counter` samples in milliseconds
# established-by: maintainer ryanboldi (the repository's author; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. `time_call` makes one call before timing, 'a warmup call that pays for compilation', and waits on it for JAX (no LB103); each of its `REPEATS` samples reads `perf_counter` around one call and, for JAX, `result.block_until_ready()` (no LB102, no LB105); the figure is the median of the samples (no LB104). The JAX fitness matrices are put on the chosen device with `jax.device_put` in `make_matrix`, before any timing (no LB115). The sweep over sizes builds a new matrix per size and warms each method on it before timing, so a new shape's compile stays out of the samples (no LB117). A correct doctor stays quiet. Code: the file at commit c7826cb, trimmed: the plotting and report functions `draw`, `label_lines` and `write_table` (matplotlib and Markdown output, called by name in `main`) and the colour tables `LIGHT` and `DARK` are left out; the rest unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: d481e6f 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""Time NumPy against JAX on CPU and GPU across problem sizes, and draw the README chart."""

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import numpy as np

import lexicase

SEED = 0
REPEATS = 5
SIZES = [(100, 50), (250, 100), (500, 200), (1000, 300), (2000, 500)]

METHODS = {
    "lexicase": lambda f, n: lexicase.lexicase_selection(f, n, seed=SEED),
    "epsilon (MAD)": lambda f, n: lexicase.epsilon_lexicase_selection(f, n, seed=SEED),
    "downsample 10%": lambda f, n: lexicase.downsample_lexicase_selection(
        f, n, max(1, f.shape[1] // 10), seed=SEED
    ),
    "dalex": lambda f, n: lexicase.dalex_selection(f, n, seed=SEED),
}

SERIES = [
    ("numpy", "cpu", "#2a78d6", "#3987e5"),
    ("jax (cpu)", "cpu", "#eb6834", "#d95926"),
    ("jax (gpu)", "gpu", "#1baf7a", "#199e70"),
]


def make_matrix(n_individuals, n_cases, label, device):
    """A population with real ties, which is what makes lexicase do work."""
    rng = np.random.default_rng(SEED)
    matrix = rng.integers(0, 4, size=(n_individuals, n_cases)).astype(np.float32)
    if label == "numpy":
        return matrix
    import jax
    import jax.numpy as jnp

    return jax.device_put(jnp.asarray(matrix), jax.devices(device)[0])


def time_call(call, matrix, num_selected, is_jax):
    """Median milliseconds per call, after one warmup call that pays for compilation."""
    result = call(matrix, num_selected)
    if is_jax:
        result.block_until_ready()

    timings = []
    for _ in range(REPEATS):
        start = time.perf_counter()
        result = call(matrix, num_selected)
        if is_jax:
            result.block_until_ready()
        timings.append(time.perf_counter() - start)
    return 1000 * float(np.median(timings))


def cpu_name():
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or platform.machine()


def available_series():
    if not lexicase.jax_is_available():
        return [SERIES[0]]
    import jax

    platforms = {device.platform for device in jax.devices()} | {"cpu"}
    return [s for s in SERIES if s[1] in platforms or s[0] == "numpy"]


def measure(series):
    """timings[method][series label] = list of milliseconds, one per size."""
    timings = {name: {label: [] for label, *_ in series} for name in METHODS}
    for n_individuals, n_cases in SIZES:
        print(f"=== {n_individuals} x {n_cases}")
        for label, device, *_ in series:
            matrix = make_matrix(n_individuals, n_cases, label, device)
            for name, call in METHODS.items():
                milliseconds = time_call(
                    call, matrix, n_individuals, label != "numpy"
                )
                timings[name][label].append(milliseconds)
                print(f"  {name:16s} {label:10s} {milliseconds:9.2f} ms")
    return timings


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--out-dir", type=Path, default=Path(__file__).parent)
    parser.add_argument(
        "--chart-dir", type=Path,
        default=Path(__file__).parent.parent / "docs" / "assets",
        help="where the PNGs go; the docs site and the README both read them from here",
    )
    parser.add_argument("--replot", action="store_true",
                        help="redraw from the last run's timings instead of measuring again")
    arguments = parser.parse_args()

    raw_path = arguments.out_dir / "results_jax_vs_numpy.json"

    if arguments.replot:
        payload = json.loads(raw_path.read_text())
        timings = payload["timings"]
        series = [tuple(entry) for entry in payload["series"]]
    else:
        series = available_series()
        if len(series) == 1:
            print("jax is not installed, nothing to compare against")
            return 1
        timings = measure(series)
        raw_path.write_text(
            json.dumps({"series": [list(s) for s in series], "timings": timings}, indent=1)
            + "\n"
        )
        write_table(timings, series, arguments.out_dir / "results_jax_vs_numpy.md")

    arguments.chart_dir.mkdir(parents=True, exist_ok=True)
    draw(timings, series, LIGHT, arguments.chart_dir / "jax_vs_numpy_light.png")
    draw(timings, series, DARK, arguments.chart_dir / "jax_vs_numpy_dark.png")
    return 0


if __name__ == "__main__":
    sys.exit(main())
