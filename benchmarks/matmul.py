"""The dot question, measured fairly: jitted jnp.dot vs np.dot (full GEMM) vs torch.mm.

Prints each ratio to NumPy with its 95% CI, as `levelbench run --workload matmul` measures it
(each framework in a worker process of its own, blocks interleaved), at float32 and float64 (JAX
with x64 enabled), plus the SYRK candidate (NumPy's `x @ x.T`) for contrast.

    python benchmarks/matmul.py [--n 2000] [--budget 20]
"""

from __future__ import annotations

import argparse

from levelbench.workloads.run import Job, run_job


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--n", type=int, default=2000)
    ap.add_argument("--budget", type=float, default=20.0)
    args = ap.parse_args()
    for dtype in ("float32", "float64"):
        result = run_job(Job("matmul", {"n": args.n, "dtype": dtype}, args.budget, diagnose=False))
        c = result.comparison
        if c is None:
            print(f"\nmatmul n={args.n} {dtype}: {result.status}: {result.error}")
            continue
        rounds = len(c.rounds[c.baseline])
        print(f"\nmatmul n={args.n} {dtype}, {rounds} rounds: ratio of median time to {c.baseline} (95% CI)")
        for name in c.names:
            r, gf = c.ratio(name), c.gflops(name)
            line = f"  {name:24} {r.estimate:6.3f}  ({r.lower:.3f}-{r.upper:.3f})  {c.verdict(name):17}"
            print(line + (f"  {gf:7.1f} GFLOP/s" if gf else ""))


if __name__ == "__main__":
    main()
