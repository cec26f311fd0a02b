# source: https://github.com/anindex/warpax/blob/72ec1fc28e0acea12e08036f37876f607d561f3b/benchmarks/bench_precision_band.py
# title: warpax's asv benchmark `benchmarks/bench_precision_band.py`: the stress-energy of an Alcubierre warp metric on a 64^3 grid, evaluated in full float64 against an fp32-screen-plus-fp64-verify pipeline, both wrapped in `jax.jit` in `setup`, called once there ('JIT warmup - keep timed methods lean') and timed by two `time_*` methods that wait on the result, with asv's `warmup_time`, `number` and `repeat` set in the class
# established-by: maintainer anindex (the repository's author; the warm-up comment is in the file; no issue discusses the benchmark's timing)
# cause: Correct for what the catalogue checks. Both evaluations are jitted once in `setup`, which asv runs outside the timed samples, and called once there with `.block_until_ready()`, so the trace and compile stay out of the samples (no LB103), and `jax.jit` is applied once per setup, not in the timed methods (no LB111). Each `time_*` method calls the jitted function and waits with `.block_until_ready()` (no LB102; the reading of 442's and 506's waited asv methods). asv takes its samples over `repeat = (2, 3, 60.0)` with `number = 1` after a 3-second `warmup_time` (no LB104). The metric and grid are built in `setup` and passed to the jitted functions; no NumPy array or host copy is timed (no LB115). float64 comes from `import warpax`, which switches `jax_enable_x64` on, as its comment says, and the file requests no float64 dtype itself (no LB108). A correct doctor stays quiet. Code: the file at commit 72ec1fc, unchanged.
# static: none
# dynamic: n/a
# inferred: none
# lines: none
# first-sight: 6043315 2026-12-06 py: found none; missed none; false none | notebook: found none; missed none; false none

"""asv benchmark - precision-band screening.

Compares full-fp64 evaluation vs fp32-screen+fp64-verify pipeline on
Alcubierre 64^3. Target ≥ 1.5x speedup on CPU per REQ (though on
this build the global float64 flag means the screen pass is fp64; the
benchmark establishes the API regression watchpoint for the follow-up
fp32-intermediates mode).

20% asv noise budget per . CPU-only per and
 default.
"""

from __future__ import annotations

import os

os.environ.setdefault("JAX_PLATFORMS", "cpu")  # CPU canonical

import jax
import jax.numpy as jnp

import warpax  # noqa: F401 -- triggers jax_enable_x64
from warpax.benchmarks import AlcubierreMetric
from warpax.geometry import GridSpec, evaluate_curvature_grid


class PrecisionBandScreening:
    """asv benchmark - fp64 vs fp32_screen+fp64_verify on Alcubierre 64^3."""

    warmup_time = 3.0
    number = 1
    repeat = (2, 3, 60.0)
    timeout = 180.0

    def setup(self) -> None:
        self.metric = AlcubierreMetric(v_s=0.5, R=2.0, sigma=8.0)
        self.grid = GridSpec(bounds=[(-6.0, 6.0)] * 3, shape=(64, 64, 64))

        def _run_fp64(metric: AlcubierreMetric) -> jnp.ndarray:
            r = evaluate_curvature_grid(
                metric,
                self.grid,
                t=0.0,
                compute_invariants=False,
                precision="fp64",
            )
            return r.stress_energy

        def _run_band(metric: AlcubierreMetric) -> jnp.ndarray:
            r = evaluate_curvature_grid(
                metric,
                self.grid,
                t=0.0,
                compute_invariants=False,
                precision="fp32_screen+fp64_verify",
                backend="cpu",
                fp32_band_tol=5e-4,
            )
            return r.stress_energy

        self.fn_fp64 = jax.jit(_run_fp64)
        self.fn_band = jax.jit(_run_band)

        # JIT warmup - keep timed methods lean
        _ = self.fn_fp64(self.metric).block_until_ready()
        _ = self.fn_band(self.metric).block_until_ready()

    def time_full_fp64_64cubed(self) -> None:
        self.fn_fp64(self.metric).block_until_ready()

    def time_fp32_screen_fp64_verify_64cubed(self) -> None:
        self.fn_band(self.metric).block_until_ready()
