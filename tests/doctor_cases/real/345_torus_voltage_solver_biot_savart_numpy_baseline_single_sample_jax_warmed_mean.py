# source: https://github.com/uwplasma/torus_voltage_solver/blob/3db07c6f5d1487db55cb6cf48f14c7c53cdcb32c/examples/performance/jax_vs_numpy_biot_savart_speed.py
# title: torus_voltage_solver `examples/performance/jax_vs_numpy_biot_savart_speed.py`: a NumPy Biot–Savart baseline timed once between two `perf_counter` reads, against a jitted JAX evaluation warmed and then averaged over `--repeat` calls with a wait after the loop, printed as 'NumPy baseline (1x)' and a speed-up
# established-by: maintainer uwplasma (the repository's 'why JAX?' performance example, run by its README)
# cause: The JAX side is sound: `jax.jit(B_jit_fn)` is called once and waited for ('Compile / warmup') before its clock starts, and the loop of `--repeat` calls ends in `B_j.block_until_ready()` before the clock stops, so every queued call is inside the average (the catalogue's good form of LB102). The NumPy baseline it is divided by is one sample of one cold run, `(1x)` as its own printed label says (LB104, at the first statement inside the clock pair, `B_np = biot_savart_surface_numpy(`); the speed-up is then one noisy, unwarmed NumPy reading over a warmed JAX mean. The baseline's loop over evaluation points is NumPy, on purpose ('intentionally kept simple'), so no JAX op-by-op label (LB114 is JAX dispatch). x64 is enabled at the top of `main`, before any array is made, so the float64 request is honoured (no LB108). No issue discusses the script; the reading is the catalogue's. Code: the file as stored at commit 3db07c6, with its ParaView and plotting outputs after `if outdir is None: return` left out (files written after every timing, no timed code).
# static: LB104
# dynamic: n/a
# inferred: LB104 (the NumPy baseline is one cold sample; not discussed)
# lines: LB104:142
# first-sight: f5b8aeb 2026-12-06 py: found none; missed LB104:142; false none | notebook: found none; missed LB104:142; false none

#!/usr/bin/env python3
"""Example: JAX vs NumPy for Biot–Savart evaluation on a winding surface.

This script exists to highlight two practical advantages of the JAX approach used in
this repository:

1) Performance: `jax.jit` can accelerate large, vectorized Biot–Savart evaluations.
2) Differentiability: the same code path is compatible with automatic differentiation
   (used throughout the optimization examples).

We compare:
  - a simple NumPy baseline that loops over evaluation points (typical "plain Python")
  - the JAX implementation `torus_solver.biot_savart_surface`, evaluated through a JIT-compiled function

Run:
  python examples/performance/jax_vs_numpy_biot_savart_speed.py
"""

from __future__ import annotations

if __package__ in (None, ""):
    import pathlib
    import sys

    root = pathlib.Path(__file__).resolve()
    while root != root.parent and not (root / "pyproject.toml").exists():
        root = root.parent
    sys.path.insert(0, str(root / "src"))

import argparse
import time

import jax
import jax.numpy as jnp
import numpy as np

from torus_solver import biot_savart_surface, make_torus_surface
from torus_solver.biot_savart import MU0
from torus_solver.paraview import point_cloud_to_vtu, torus_surface_to_vtu, write_vtm, write_vtu
from torus_solver.plotting import ensure_dir, plot_3d_torus, plot_surface_map, savefig, set_plot_style
import torus_solver.plotting as tplot


def biot_savart_surface_numpy(
    *,
    r_surf: np.ndarray,  # (M,3)
    K_surf: np.ndarray,  # (M,3)
    dA: np.ndarray,  # (M,)
    eval_points: np.ndarray,  # (N,3)
    mu0: float,
    eps: float,
) -> np.ndarray:
    """Plain NumPy baseline (loops over evaluation points).

    This is intentionally kept "simple and obvious", as many legacy research codes are.
    It is reasonably vectorized over surface elements, but not over evaluation points.
    """
    pref = float(mu0) / (4.0 * np.pi)
    eps2 = float(eps) * float(eps)
    out = np.zeros((eval_points.shape[0], 3), dtype=float)

    for i in range(eval_points.shape[0]):
        P = eval_points[i]
        R = P[None, :] - r_surf  # (M,3)
        r2 = np.sum(R * R, axis=-1) + eps2  # (M,)
        inv_r3 = r2 ** (-1.5)
        dB = np.cross(K_surf, R) * inv_r3[:, None] * dA[:, None]
        out[i] = pref * np.sum(dB, axis=0)

    return out


def main() -> None:
    jax.config.update("jax_enable_x64", True)

    p = argparse.ArgumentParser()
    p.add_argument("--R0", type=float, default=3.0)
    p.add_argument("--a", type=float, default=0.6)
    p.add_argument("--n-theta", type=int, default=64)
    p.add_argument("--n-phi", type=int, default=64)
    p.add_argument("--Ktheta", type=float, default=5e4, help="Constant poloidal current density [A/m]")
    p.add_argument("--n-eval", type=int, default=256, help="Number of evaluation points")
    p.add_argument("--rho-eval", type=float, default=0.55, help="Minor-radius fraction for evaluation points")
    p.add_argument("--eps", type=float, default=1e-8, help="Biot–Savart softening length [m]")
    p.add_argument("--chunk-size", type=int, default=256, help="JAX chunk size (None disables chunking)")
    p.add_argument("--repeat", type=int, default=10, help="Timing repeats (post-compilation)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--outdir", type=str, default="figures/jax_vs_numpy_biot_savart_speed")
    p.add_argument("--dpi", type=int, default=300)
    p.add_argument("--no-plots", action="store_true")
    p.add_argument("--no-paraview", action="store_true")
    p.add_argument("--plot-stride", type=int, default=3)
    args = p.parse_args()

    if not (0.0 < args.rho_eval < 0.99):
        raise SystemExit("--rho-eval must be in (0,1).")
    if args.repeat <= 0:
        raise SystemExit("--repeat must be positive.")

    outdir = None
    if (not args.no_plots) or (not args.no_paraview):
        outdir = ensure_dir(args.outdir)
        if not args.no_plots:
            set_plot_style()
            ensure_dir(outdir / "geometry")
            ensure_dir(outdir / "maps")
            ensure_dir(outdir / "timing")
        if not args.no_paraview:
            ensure_dir(outdir / "paraview")

    surface = make_torus_surface(R0=float(args.R0), a=float(args.a), n_theta=int(args.n_theta), n_phi=int(args.n_phi))

    # Simple current sheet: constant K along +θ.
    e_theta = surface.r_theta / surface.a
    K = float(args.Ktheta) * e_theta

    # Random evaluation points on a poloidal circle at φ=0 (inside the torus).
    rng = np.random.default_rng(int(args.seed))
    theta = rng.uniform(0.0, 2 * np.pi, size=(int(args.n_eval),))
    rho = float(args.rho_eval) * float(args.a)
    R = args.R0 + rho * np.cos(theta)
    Z = rho * np.sin(theta)
    eval_np = np.stack([R, np.zeros_like(R), Z], axis=-1).astype(float)
    eval_jax = jnp.asarray(eval_np, dtype=jnp.float64)

    # ---- NumPy baseline ----
    r_surf = np.asarray(surface.r, dtype=float).reshape((-1, 3))
    K_surf = np.asarray(K, dtype=float).reshape((-1, 3))
    dA = np.asarray(surface.area_weights, dtype=float).reshape((-1,))

    t0 = time.perf_counter()
    B_np = biot_savart_surface_numpy(
        r_surf=r_surf, K_surf=K_surf, dA=dA, eval_points=eval_np, mu0=float(MU0), eps=float(args.eps)
    )
    t1 = time.perf_counter()

    # ---- JAX (jit) ----
    chunk_size = None if int(args.chunk_size) <= 0 else int(args.chunk_size)

    def B_jit_fn(pts: jnp.ndarray) -> jnp.ndarray:
        return biot_savart_surface(surface, K, pts, eps=float(args.eps), chunk_size=chunk_size)

    B_jit = jax.jit(B_jit_fn)

    # Compile / warmup.
    _ = B_jit(eval_jax).block_until_ready()

    t2 = time.perf_counter()
    for _k in range(int(args.repeat)):
        B_j = B_jit(eval_jax)
    B_j.block_until_ready()
    t3 = time.perf_counter()
    B_jax = np.asarray(B_j, dtype=float)

    # Accuracy check (should match closely in double precision).
    max_abs = float(np.max(np.abs(B_jax - B_np)))
    rel = float(max_abs / (np.max(np.abs(B_np)) + 1e-30))

    t_numpy = t1 - t0
    t_jax = (t3 - t2) / float(args.repeat)
    speedup = t_numpy / t_jax if t_jax > 0 else np.inf

    print("Biot–Savart speed comparison")
    print(f"  surface grid: n_theta={args.n_theta} n_phi={args.n_phi}  (M={r_surf.shape[0]})")
    print(f"  eval points:  n_eval={args.n_eval}")
    print(f"  eps={args.eps:g}  chunk_size={chunk_size}")
    print(f"  NumPy baseline (1x): {t_numpy:.3f} s")
    print(f"  JAX jit (avg over {args.repeat}x): {t_jax:.4f} s/call   speedup={speedup:.1f}x")
    print(f"  agreement: max_abs={max_abs:.3e} T   rel={rel:.3e}")

    if outdir is None:
        return


if __name__ == "__main__":
    main()
