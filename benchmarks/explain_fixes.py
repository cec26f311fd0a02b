"""Measured fixes and the dense-kernel comparison of `explain` (issue 16), on the seed cases.

    PYTHONPATH=. python benchmarks/explain_fixes.py [--budget SECONDS]

Prints, for each case, every fix trial (measured with its 95% CI, refused, skipped, projected)
and the LB262 kernel shares. Ratios are measured side by side in one run (compare's interleaved
rounds); on a loaded machine the CIs are wide, and nothing is claimed beyond them.
"""

from __future__ import annotations

import argparse
import os
import sys

import jax
import jax.numpy as jnp
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "tests"))


def trials(title: str, d) -> None:
    print(f"\n== {title}  ({d.elapsed:.1f} s)")
    for t in d.measured.get("fixes", []):
        if t["status"] == "measured":
            print(f"  {t['finding']} {t['status']} {t['at']}: {t['original'] * 1e3:.3g} ms as given, "
                  f"{t['fixed'] * 1e3:.3g} ms with {t['expression']}: {t['speedup']:.3g}x "
                  f"(95% CI {t['speedup_low']:.3g}-{t['speedup_high']:.3g}), {t['rounds']} rounds, "
                  f"agreement {t['agreement'] and t['agreement'].get('ok')}, difference {t['difference']}")
        else:
            print(f"  {t['finding']} {t['status']}: {t['reason'][:120]}")
    k = d.measured.get("kernels")
    if k:
        shares = ", ".join(f"{n} {100 * s:.0f}%" for n, s in k["peak_share"].items() if s)
        gaps = ", ".join(f"jax/{n} {r['estimate']:.3g} ({r['lower']:.3g}-{r['upper']:.3g})"
                         for n, r in k.get("jax_over", {}).items() if n != "jax")
        print(f"  LB262 {k['kernel']}: % of peak {shares}; time ratios {gaps}; program "
              f"{100 * (k['program_peak_share'] or 0):.0f}%")


def main() -> None:
    p = argparse.ArgumentParser()
    p.add_argument("--budget", type=float, default=10.0)
    budget = p.parse_args().budget
    from levelbench._probing import explain
    import test_explain_seed as seed_case

    forward, _, params, xs = seed_case.seed.__wrapped__()
    trials("seed GRU forward, not jitted (1000 steps, shortened by explain)", explain(forward, params, xs, budget=budget))

    def loss(x):
        for _ in range(30):
            x = jnp.sin(x) * 1.01
        return jnp.sum(x)

    trials("grad_loss = jax.grad(loss), not jitted", explain(jax.grad(loss), jnp.ones(64), budget=budget))

    def derivative(x, h):
        return (jnp.sin(x + h) - jnp.sin(x)) / h

    trials("jitted finite difference with Python floats (x64 off)", explain(jax.jit(derivative), 1.0, 1e-3, budget=budget))

    for n in (1000, 2000):
        x = jnp.asarray(np.random.default_rng(0).standard_normal((n, n), dtype=np.float32))
        trials(f"seed matmul jax.jit(jnp.dot), float32 n={n}", explain(jax.jit(jnp.dot), x, x, probes=["kernels"],
                                                                    budget=budget))


if __name__ == "__main__":
    main()
