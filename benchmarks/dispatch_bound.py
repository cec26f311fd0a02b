"""When is a measured time per-call overhead? The evidence behind LB004's threshold.

A call costs a fixed per-call overhead (the dispatch floor: an empty jitted call) plus its work,
t = floor + w. The floor's share of the median, s = floor / t, then says how much of a time is
not the framework's kernels: doubling the work should cost 2 - s times as much, not 2x. This
sweeps jitted operations over sizes, measures the median at n and at 2n with levelbench.measure,
and prints the share next to the growth that doubling the work actually gave, so the threshold
(LB004 from a share of 20%: a median within 5x the floor) rests on measured growth, not on a guess.
Measured 2026-12-01 on the shared 2-core machine: every call within 5x grew at most 1.74x per
doubling of work (sin followed 2 - share closely; sum and matmul stayed near 1x up to 10-20x the floor).

    python benchmarks/dispatch_bound.py [--budget 0.3]
"""

from __future__ import annotations

import argparse


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=0.3, help="seconds of sampling per measurement")
    args = ap.parse_args()

    import jax
    import jax.numpy as jnp

    import levelbench
    from levelbench._values.settings import CHECKS

    ops = {
        "sin": (jax.jit(jnp.sin), lambda n: (jnp.ones(n),)),
        "sum": (jax.jit(jnp.sum), lambda n: (jnp.ones(n),)),
        "matmul": (jax.jit(jnp.dot), lambda n: (jnp.ones((int(n ** 0.5),) * 2), jnp.ones((int(n ** 0.5),) * 2))),
    }
    sizes = [2 ** k for k in range(4, 23, 2)]
    print(f"LB004 fires below a median of {CHECKS.dispatch_bound:g}x the floor "
          f"(share >= {1 / CHECKS.dispatch_bound:.0%})")
    print(f"{'op':8} {'n':>9} {'median':>10} {'floor':>9} {'share':>6} {'t(2n)/t(n)':>10} "
          f"{'2-share':>8} {'LB004':>6}")
    for name, (fn, make) in ops.items():
        for n in sizes:
            m = levelbench.measure(fn, *make(n), budget=args.budget)
            m2 = levelbench.measure(fn, *make(2 * n if name != "matmul" else 4 * n), budget=args.budget)
            share = m.dispatch_floor / m.median if m.dispatch_floor else float("nan")
            # matmul: 4x the elements is 8x the FLOPs; report the growth per doubling of work
            growth = (m2.median / m.median) ** (1 / 3 if name == "matmul" else 1)
            print(f"{name:8} {n:>9,} {m.median * 1e6:>8.1f}us {m.dispatch_floor * 1e6:>7.1f}us "
                  f"{share:>6.0%} {growth:>10.2f} {2 - min(share, 1):>8.2f} {'yes' if m.has('LB004') else '':>6}")


if __name__ == "__main__":
    main()
