# source: https://github.com/Gigachad6542/stellar-stream-dm/blob/75d13c80b81489fc8dc8707d81f417bf98794204/scripts/benchmark_jax.py
# title: stellar-stream-dm's `scripts/benchmark_jax.py` ('Benchmark JAX integrator vs galpy on 10 simulations per mode'): a `benchmark_mode` helper times the first `generate_stream` simulation apart ('First call includes JIT compilation for JAX — report separately'), then `n_sims - 1` more simulations, each between two `time.time()` reads, and reports the first time, the steady mean and std, and the galpy/JAX speedup
# established-by: maintainer Gigachad6542 (the repository's own benchmark script; no issue discusses its timing)
# cause: What a correct doctor reports, by the catalogue and the corpus's readings; no one discussed the timing. The helper's clock is `time.time()`, for the first simulation and for each steady one (LB105 at the two start reads, `t_first = time.time()` and `t0 = time.time()`). Not labelled: the first simulation is timed on purpose and reported under its own name as the JIT compile (no LB103, no LB104; the reading of 200, 224 and 513); the steady figure is the mean of `n_sims - 1` samples (no LB104); `generate_stream` and its JAX integrator live in `src.simulation.stream_gen`, so whether the returned stream holds dispatched JAX arrays is not in sight (no LB102 claimed). Code: the file as stored at commit 75d13c8, trimmed: the DLL fix-up helper, the galstreams and IC-cache set-up, the quality checks and the 40K-run estimate in `main` are dropped; `benchmark_mode` is kept whole.
# static: LB105
# dynamic: n/a
# inferred: LB105 (time.time() as the interval clock inside the helper, as elsewhere in the corpus; not discussed)
# lines: LB105:56/79
# first-sight: a0c2c7e 2026-12-07 py: found none; missed LB105:56/79; false none | notebook: found none; missed LB105:56/79; false none

"""
Benchmark JAX integrator vs galpy on 10 simulations per mode.

Verifies:
1. Speedup (JAX should be 10-30x faster per sim after JIT warm-up)
2. Stream track quality: phi2 RMS < 1 deg for JAX streams
3. Particle counts are reasonable (>100 per stream)
"""

from __future__ import annotations

import argparse
import logging
import os
import sys
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

log = logging.getLogger(__name__)


def benchmark_mode(mode: str, n_sims: int, stream_name: str, potential,
                   cfg_streams: str, mws) -> dict:
    """Run n_sims simulations in galpy or JAX mode and return timing/quality stats."""
    from src.simulation.stream_gen import generate_stream

    if mode == "jax":
        os.environ["USE_JAX_INTEGRATOR"] = "1"
    else:
        os.environ["USE_JAX_INTEGRATOR"] = "0"

    log.info("[%s] Running %d simulations on %s ...", mode.upper(), n_sims, stream_name)

    times = []
    n_particles = []
    phi2_stds = []

    rng = np.random.default_rng(42)

    # First call includes JIT compilation for JAX — report separately
    t_first = time.time()
    p = generate_stream(
        stream_name=stream_name,
        potential=potential,
        n_stars=5000,
        seed=1001,
        config_path=cfg_streams,
        mws=mws,
        n_steps_back=100,
    )
    t_first_elapsed = time.time() - t_first
    first_n = len(p.phi1)
    first_phi2_std = float(np.std(p.phi2)) if first_n > 10 else np.nan

    if mode == "jax":
        log.info("  [%s] Sim 1 (JIT compile): %.1f s  n=%d  phi2_std=%.3f deg",
                 mode.upper(), t_first_elapsed, first_n, first_phi2_std)
    else:
        log.info("  [%s] Sim 1: %.1f s  n=%d", mode.upper(), t_first_elapsed, first_n)

    # Subsequent calls (no JIT overhead for JAX)
    for i in range(1, n_sims):
        seed = int(rng.integers(1000, 9999))
        t0 = time.time()
        p = generate_stream(
            stream_name=stream_name,
            potential=potential,
            n_stars=5000,
            seed=seed,
            config_path=cfg_streams,
            mws=mws,
            n_steps_back=100,
        )
        elapsed = time.time() - t0
        n = len(p.phi1)
        phi2_std = float(np.std(p.phi2)) if n > 10 else np.nan

        times.append(elapsed)
        n_particles.append(n)
        phi2_stds.append(phi2_std)

    # Include first sim in n_particles for reporting
    n_particles_all = [first_n] + n_particles
    phi2_stds_all = [first_phi2_std] + phi2_stds
    times_all = [t_first_elapsed] + times

    os.environ["USE_JAX_INTEGRATOR"] = "0"  # reset

    return {
        "mode": mode,
        "n_sims": n_sims,
        "t_first_s": t_first_elapsed,
        "t_steady_mean_s": float(np.mean(times)) if times else t_first_elapsed,
        "t_steady_std_s": float(np.std(times)) if times else 0.0,
        "t_total_s": sum(times_all),
        "n_particles_mean": float(np.mean(n_particles_all)),
        "n_particles_min": int(np.min(n_particles_all)),
        "phi2_std_mean": float(np.nanmean(phi2_stds_all)),
    }


def main(args: argparse.Namespace) -> None:
    cfg_streams = str(ROOT / "config" / "streams.yaml")
    stream_name = args.stream

    log.info("Loading base MW potential ...")
    from src.simulation.potentials import get_mw_potential
    potential = get_mw_potential()

    log.info("Loading galstreams catalog ...")
    import galstreams  # noqa: PLC0415
    mws = galstreams.MWStreams(verbose=False)

    n_sims = args.n_sims

    results = {}

    results["galpy"] = benchmark_mode(
        "galpy", n_sims, stream_name, potential, cfg_streams, mws
    )

    results["jax"] = benchmark_mode(
        "jax", n_sims, stream_name, potential, cfg_streams, mws
    )

    r_g = results["galpy"]
    r_j = results["jax"]

    if r_g["t_steady_mean_s"] > 0 and r_j["t_steady_mean_s"] > 0:
        speedup = r_g["t_steady_mean_s"] / r_j["t_steady_mean_s"]
        log.info("")
        log.info("Speedup (steady-state): %.1f×", speedup)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description="Benchmark JAX vs galpy stream generation."
    )
    parser.add_argument("--n-sims", type=int, default=10,
                        help="Simulations per mode (default: 10)")
    parser.add_argument("--stream", default="GD1",
                        choices=["GD1", "Pal5", "Orphan", "ATLAS", "Jhelum", "Fjorm", "Sylgr"],
                        help="Stream to benchmark (default: GD1)")
    args = parser.parse_args()
    main(args)
