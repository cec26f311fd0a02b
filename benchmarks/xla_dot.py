"""XLA:CPU's float32 dot: YNNPACK fusions (jaxlib's default) against the Eigen path and NumPy.

The GEMMs of the seed GRU, each candidate a builder timed by ``levelbench.compare(...,
isolate=True)`` in a worker process of its own (see docs/design/isolation.md for why that matters):

- the hoisted input projection of layer 2, (T*B, H) x (H, 3H) = (8000, 200) x (200, 600);
- one recurrent step, (B, H) x (H, 3H) = (8, 200) x (200, 600).

The Eigen path is ``jax.jit(...).lower(...).compile({"xla_cpu_experimental_ynn_fusion_type": ""})``.

    python benchmarks/xla_dot.py [--budget 10]
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

HERE = os.path.abspath(__file__)
SHAPES = {"input projection": (8000, 200, 600), "recurrent step": (8, 200, 600)}


def _operands(m: int, k: int, n: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(0)
    return rng.standard_normal((m, k)).astype(np.float32), rng.standard_normal((k, n)).astype(np.float32)


def numpy_dot(m: int, k: int, n: int) -> Any:
    a, b = _operands(m, k, n)
    return np.dot, (a, b)


def jax_dot(m: int, k: int, n: int, eigen: bool = False) -> Any:
    import jax
    import jax.numpy as jnp

    a, b = (jax.device_put(x) for x in _operands(m, k, n))
    if not eigen:
        return jax.jit(jnp.dot), (a, b)
    compiled = jax.jit(jnp.dot).lower(a, b).compile({"xla_cpu_experimental_ynn_fusion_type": ""})
    return compiled, (a, b)


def main() -> None:
    import levelbench
    from levelbench._values.units import fmt_time

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", type=float, default=10.0)
    args = ap.parse_args()
    for label, (m, k, n) in SHAPES.items():
        size = {"m": m, "k": k, "n": n}
        c = levelbench.compare({
            "numpy": levelbench.Builder(f"{HERE}:numpy_dot", size),
            "jax (YNNPACK)": levelbench.Builder(f"{HERE}:jax_dot", size),
            "jax (Eigen)": levelbench.Builder(f"{HERE}:jax_dot", {**size, "eigen": True}),
        }, isolate=True, budget=args.budget)
        print(f"\n{label}: ({m}, {k}) x ({k}, {n}) float32, {len(c.rounds['numpy'])} rounds")
        for name, meas in c.measurements.items():
            r = c.ratio(name)
            print(f"  {name:14} {fmt_time(meas.median):>9}   / numpy {r.estimate:6.3f} "
                  f"({r.lower:.3f}-{r.upper:.3f})")


if __name__ == "__main__":
    main()
