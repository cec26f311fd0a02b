"""Measured fixes and the dense-kernel comparison of `explain` (issue 16), on the seed cases.

    PYTHONPATH=. python benchmarks/explain_fixes.py [--budget SECONDS]

Prints, for each case, every fix trial (measured with its 95% CI, refused, skipped, projected:
jit, x64, donated buffers, the persistent compilation cache, XLA's CPU dot alternatives) and the
LB262 kernel shares. Ratios are measured side by side in one run (compare's interleaved
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
    from levelbench._probing.trial import FixTrial

    for t in d.measured.get("fixes", []):
        trial = FixTrial(**{k: v for k, v in t.items() if k not in ("finding", "verdict")})
        print(f"  {t['finding']} {t['status']}: {trial.text()}")
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

    def update(x, i, v):
        return x.at[i].set(v)

    x = jnp.zeros((2048, 1024))
    trials("jitted in-place update of a 8 MiB array (donation)", explain(jax.jit(update), x, 3, 1.0,
                                                                         probes=["donation"], budget=budget))

    def unrolled(x):
        for _ in range(150):
            x = jnp.tanh(x) @ x + 1.0
        return x

    trials("jitted 150-step unrolled loop (compilation cache)", explain(jax.jit(unrolled), jnp.ones((8, 8)),
                                                                       probes=["compile"], budget=budget))

    for n in (1000, 2000):
        x = jnp.asarray(np.random.default_rng(0).standard_normal((n, n), dtype=np.float32))
        trials(f"seed matmul jax.jit(jnp.dot), float32 n={n}", explain(jax.jit(jnp.dot), x, x, probes=["kernels"],
                                                                    budget=budget))


if __name__ == "__main__":
    main()
