"""The dot question, measured fairly: jitted jnp.dot vs np.dot (full GEMM) vs torch.mm.

Prints each ratio to NumPy with its 95% CI, measured interleaved in one run, at float32 and
float64 (JAX with x64 enabled), plus the SYRK candidate (NumPy's `x @ x.T`) for contrast.

    python benchmarks/matmul.py [--n 2000] [--budget 10]
"""

from __future__ import annotations

import argparse

import levelbench
from levelbench.workloads import Skipped, load


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=10.0)
    args = ap.parse_args()
    w = load("matmul")
    for dtype in ("float32", "float64"):
        cands = {k: v for k, v in w.candidates(n=args.n, dtype=dtype).items() if not isinstance(v, Skipped)}
        c = levelbench.compare(cands, baseline=w.baseline, budget=args.budget)
        print(f"\nmatmul n={args.n} {dtype}: ratio of median time to {w.baseline} (95% CI)")
        for name in c.names:
            r = c.ratio(name)
            gf = c.gflops(name)
            print(f"  {name:24} {r.estimate:6.3f}  ({r.lower:.3f}-{r.upper:.3f})  {c.verdict(name):17}"
                  f"  {gf:7.1f} GFLOP/s" if gf else f"  {name:24} {r.estimate:6.3f}  ({r.lower:.3f}-{r.upper:.3f})")


if __name__ == "__main__":
    main()
