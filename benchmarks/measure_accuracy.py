"""Does levelbench.measure agree with a careful hand-written loop?

Prints, for a jitted 1000x1000 matmul and a 2 ms busy-wait, the median that `measure` reports next
to a hand-written `f(x).block_until_ready()` loop, interleaved over several rounds in one process.

    python benchmarks/measure_accuracy.py
"""

from __future__ import annotations

import statistics
import time

import levelbench


def hand_loop(call, n: int) -> float:
    times = []
    for _ in range(n):
        t0 = time.perf_counter()
        call()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def main() -> None:
    import jax
    import jax.numpy as jnp

    f = jax.jit(lambda x: x @ x)
    x = jnp.ones((1000, 1000), jnp.float32)

    def busy():
        t0 = time.perf_counter()
        while time.perf_counter() - t0 < 0.002:
            pass

    cases = {
        "jit(x @ x), 1000x1000 f32": (f, (x,), lambda: f(x).block_until_ready()),
        "busy-wait 2 ms": (busy, (), busy),
    }
    print(f"{'case':28} {'measure':>10} {'hand loop':>10} {'ratio':>7}")
    for name, (fn, args, hand_call) in cases.items():
        ratios = []
        for _ in range(3):  # interleaved rounds: drift hits both
            m = levelbench.measure(fn, *args, budget=1.0, environment=False)
            h = hand_loop(hand_call, 50)
            ratios.append(m.median / h)
            print(f"{name:28} {m.median * 1e3:9.3f}ms {h * 1e3:9.3f}ms {m.median / h:7.3f}")
        print(f"{'':28} median ratio {statistics.median(ratios):.3f} (target: within 0.90..1.10)")


if __name__ == "__main__":
    main()
