"""levelbench.nn.LSTM against torch.nn.LSTM and flax.linen.RNN(OptimizedLSTMCell), each in a process
of its own: benchmarks/gru.py's method for the LSTM.

Every candidate is a builder of benchmarks/_rnn_candidates.py, run by ``levelbench.compare(..., isolate=True)``: each in
its own worker process, blocks of samples interleaved round-robin, ratios paired over rounds with
bootstrap 95% CIs. Forward runs torch in ``inference_mode()`` on an ``eval()`` module;
forward+backward takes the gradient of ``mean(out**2)`` with respect to the parameters in all
three. levelbench loads torch's weights and is checked against torch's output (or loss) before
timing; Flax has its own weights. % of peak counts the GEMM FLOPs (forward+backward: 3x the
forward's) against the machine's float32 peak as levelbench measures it. Compile time is jax's
lower+compile at seq 25 and 1000, in this process.

Issue 20's targets at the seed sizes, batch 8: forward <= 0.35x torch and <= 0.6x Flax,
forward+backward <= 0.35x torch and <= 0.5x Flax; compile <= 1 s, flat in the sequence length.

    python benchmarks/lstm.py              # batch 8 and 64, ~6 minutes
    python benchmarks/lstm.py --quick      # a shorter budget, batch 8 only
"""

from __future__ import annotations

import argparse
from typing import Any

import _rnn_candidates as shared  # beside this file: found when run as a script or loaded by path



def frameworks(seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks("lstm", seq, batch, mode, budget)


def main() -> None:
    from levelbench._measuring.peak import machine_peak

    args = shared.parse_arguments(argparse.ArgumentParser(description=__doc__.splitlines()[0]),
                                  "a shorter budget, batch 8 only")
    print(shared.environment())
    peak = machine_peak().float32_flops
    for batch in args.batches:
        for mode in ("forward", "train"):
            c = frameworks(args.seq, batch, mode, args.budget)
            shared.print_comparison(c, ["torch.nn.LSTM", "flax.linen.RNN"])
            shared.print_rates("lstm", c, args.seq, batch, mode, peak)

    shared.print_compile_seconds("lstm", args.seq)
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
