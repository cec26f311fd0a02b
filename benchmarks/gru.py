"""levelbench.nn.GRU against torch.nn.GRU and flax.linen.RNN(GRUCell), each in a process of its own.

Every candidate is a builder in this file, run by ``levelbench.compare(..., isolate=True)``: each
in its own worker process (no framework's thread pools beside another's), blocks of samples
interleaved round-robin so that drift on a shared machine hits all alike, helper threads waited
out before each block. Ratios are paired over rounds, with bootstrap 95% CIs. Forward runs torch
in ``inference_mode()`` on an ``eval()`` module; forward+backward takes the gradient of
``mean(out**2)`` with respect to the parameters in all three. levelbench loads torch's weights and
is checked against torch's output (or loss) before timing; Flax has its own weights. Compile time
is jax's lower+compile of the jitted function at seq 25 and 1000, in this process.

    python benchmarks/gru.py              # seed sizes (batch 8) and batch 64, ~6 minutes
    python benchmarks/gru.py --quick      # a shorter budget, seed sizes only
    python benchmarks/gru.py --kernels    # levelbench's recurrence kernels against each other
"""

from __future__ import annotations

import argparse
import os
from typing import Any

import numpy as np

import _rnn_candidates as shared  # beside this file: found when run as a script or loaded by path

SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2
HERE = os.path.abspath(__file__)
KERNELS = {
    "native, 2 threads": {"native": True, "threads": 2},
    "native, 1 thread": {"native": True, "threads": 1},
    "XLA loops": {},
    "XLA loops, per-gate GEMMs": {"gemms": 3},
    "XLA loops, unroll 4": {"unroll": 4},
    "XLA scan, autodiff": {"custom_vjp": False},
}


# -- builders: each runs in the worker process that times it --------------------------------------
def _inputs(seq: int, batch: int) -> tuple[Any, np.ndarray]:
    return shared.inputs("GRU", seq, batch, FEATURES, HIDDEN, LAYERS)


def torch_gru(seq: int, batch: int, mode: str) -> Any:
    return shared.torch_candidate(*_inputs(seq, batch), mode)


def flax_gru(seq: int, batch: int, mode: str) -> Any:
    """``flax.linen.RNN(GRUCell)`` stacked LAYERS deep (its own weights), jitted."""
    import flax.linen as nn

    return shared.flax_candidate(lambda: nn.GRUCell(HIDDEN), _inputs(seq, batch)[1], LAYERS, mode)


def levelbench_gru(seq: int, batch: int, mode: str, kernel: dict | None = None) -> Any:
    """levelbench.nn.GRU with torch's weights; ``kernel`` picks the recurrence (`Kernel` fields)."""
    from levelbench.nn import _gru, from_torch
    from levelbench.nn._rnn_kernel import Kernel

    module, x = _inputs(seq, batch)
    params, gru = from_torch(module)
    chosen = Kernel(**kernel) if kernel is not None else None
    return shared.levelbench_candidate(lambda p, x: _gru._apply(gru, p, x, None, chosen), params, x, mode)


# -- timing ----------------------------------------------------------------------------------------
def frameworks(seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks(HERE, "gru", seq, batch, mode, budget)


def kernels(seq: int, batch: int, mode: str, budget: float) -> Any:
    import levelbench

    return levelbench.compare({
        name: levelbench.Builder(f"{HERE}:levelbench_gru", {"seq": seq, "batch": batch, "mode": mode, "kernel": k})
        for name, k in KERNELS.items()
    }, isolate=True, budget=budget, rtol=1e-4, title=f"kernels, {shared.label(mode)}, seq {seq}, batch {batch}")


def compile_seconds(seq: int, batch: int, repeats: int = 3) -> dict[str, float]:
    """Median seconds to lower and compile levelbench's and Flax's jitted functions."""
    return shared.compile_seconds([("levelbench forward", levelbench_gru, "forward"),
                                   ("levelbench forward+backward", levelbench_gru, "train"),
                                   ("flax.linen.RNN forward", flax_gru, "forward"),
                                   ("flax.linen.RNN forward+backward", flax_gru, "train")], seq, batch, repeats)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter budget, seed sizes only")
    parser.add_argument("--budget", type=float, default=None, help="seconds of interleaved timing per comparison")
    parser.add_argument("--kernels", action="store_true", help="compare levelbench's kernels instead")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    args = parser.parse_args()
    print(shared.environment())
    batches = args.batch or ([8] if args.quick else [8, 64])
    budget = args.budget or (10.0 if args.quick else 30.0)
    if args.kernels:
        for batch in batches:
            for mode in ("forward", "train"):
                shared.print_comparison(kernels(SEQ, batch, mode, budget), [next(iter(KERNELS))])
        return
    for batch in batches:
        for mode in ("forward", "train"):
            shared.print_comparison(frameworks(SEQ, batch, mode, budget), ["torch.nn.GRU", "flax.linen.RNN"])

    print("\ncompile time (lower + compile, median of 3, seconds), batch 8")
    by_seq = {seq: compile_seconds(seq, 8) for seq in (25, SEQ)}
    print(f"  {'function':34} {'seq 25':>8} {'seq 1000':>9} {'1000/25':>8}")
    for name in by_seq[25]:
        a, b = by_seq[25][name], by_seq[SEQ][name]
        print(f"  {name:34} {a:8.2f} {b:9.2f} {b / a:8.2f}")
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
