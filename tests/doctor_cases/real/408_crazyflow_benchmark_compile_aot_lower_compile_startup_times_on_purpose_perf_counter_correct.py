# source: https://github.com/utiasDSL/crazyflow/blob/ca15f47b348ef5236db7d9c4d52b5eaaa28c9703/benchmark/compile.py
# title: Crazyflow's `benchmark/compile.py`: the simulator's start-up costs, its construction and the ahead-of-time `.lower(...).compile()` of its jitted reset and step, each timed once between two `perf_counter` reads, optionally with JAX's persistent compilation cache switched on to time a warm start
# established-by: maintainer utiasDSL (the Crazyflow project's own start-up benchmark; no issue discusses its timing)
# cause: Correct code. The script's figures are start-up costs, measured on purpose once per process: the compile figures time `sim._reset.lower(...).compile()` and `sim._step.lower(...).compile()`, ahead-of-time compiles that return only when the executable is built, so nothing is left running when the clock is read again (no LB102) and the compile is the point of the figure, not a cold call mistaken for a warm one (no LB103, no LB111; 'a timing that measures compilation on purpose, once' is not LB104, the README's reading of 132/200/202/212/216, case 367's timed AOT compile); the `cache` flag points JAX's persistent compilation cache at a directory so that a second process times the cached start-up, again on purpose. The 'Initialization' figure is the simulator's Python constructor, a start-up cost of the same kind. The clock is `time.perf_counter` (no LB105). A correct doctor stays quiet. Code: the file as stored at commit ca15f47, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 0ba6573 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

import time

import fire
import jax

from crazyflow import Sim


def main(cache: bool = False):
    """Main entry point for profiling."""
    if cache:
        jax.config.update("jax_compilation_cache_dir", "/tmp/jax_cache")
        jax.config.update("jax_persistent_cache_min_entry_size_bytes", -1)
        jax.config.update("jax_persistent_cache_min_compile_time_secs", 0)
        jax.config.update("jax_persistent_cache_enable_xla_caches", "all")

    # Time initialization
    start = time.perf_counter()
    sim = Sim(n_worlds=1, n_drones=1, physics="sys_id", control="attitude")
    init_time = time.perf_counter() - start

    # Time reset compilation
    start = time.perf_counter()
    sim._reset.lower(sim.data, sim.default_data, None).compile()
    reset_time = time.perf_counter() - start

    # Time step compilation
    start = time.perf_counter()
    sim._step.lower(sim.data, 1).compile()
    step_time = time.perf_counter() - start

    print(f"Simulation startup times | {sim.physics} | {sim.control}")
    print(f"Initialization: {init_time:.2f}s")
    print(f"Reset: {reset_time:.2f}s")
    print(f"Step: {step_time:.2f}s")


if __name__ == "__main__":
    fire.Fire(main)
