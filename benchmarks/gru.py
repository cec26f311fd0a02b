"""levelbench.nn.GRU against torch.nn.GRU and flax.linen.RNN(GRUCell), each in a process of its own.

Every candidate is a builder of benchmarks/_rnn_candidates.py, run by ``levelbench.compare(..., isolate=True)``: each
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
from typing import Any

import _rnn_candidates as shared  # beside this file: found when run as a script or loaded by path

KERNELS = {
    "native, 2 threads": {"native": True, "threads": 2},
    "native, 1 thread": {"native": True, "threads": 1},
    "XLA loops": {},
    "XLA loops, per-gate GEMMs": {"gemms": 3},
    "XLA loops, unroll 4": {"unroll": 4},
    "XLA scan, autodiff": {"custom_vjp": False},
}


def frameworks(seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks("gru", seq, batch, mode, budget)


def kernels(seq: int, batch: int, mode: str, budget: float) -> Any:
    """levelbench's recurrence kernels against each other, each built in its own process."""
    import levelbench

    spec = {"seq": seq, "batch": batch, "mode": mode}
    return levelbench.compare({name: shared.builder("levelbench", "gru", **spec, kernel=k)
                               for name, k in KERNELS.items()},
                              isolate=True, budget=budget, rtol=1e-4,
                              title=f"kernels, {shared.label(mode)}, seq {seq}, batch {batch}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--kernels", action="store_true", help="compare levelbench's kernels instead")
    args = shared.parse_arguments(parser, "a shorter budget, seed sizes only")
    print(shared.environment())
    if args.kernels:
        for batch in args.batches:
            for mode in ("forward", "train"):
                shared.print_comparison(kernels(args.seq, batch, mode, args.budget), [next(iter(KERNELS))])
        return
    for batch in args.batches:
        for mode in ("forward", "train"):
            c = frameworks(args.seq, batch, mode, args.budget)
            shared.print_comparison(c, ["torch.nn.GRU", "flax.linen.RNN"])

    shared.print_compile_seconds("gru", args.seq)
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
