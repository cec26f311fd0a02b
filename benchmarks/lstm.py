"""levelbench.nn.LSTM against torch.nn.LSTM and flax.linen.RNN(OptimizedLSTMCell), each in a process
of its own: benchmarks/gru.py's method for the LSTM.

Every candidate is a builder in this file, run by ``levelbench.compare(..., isolate=True)``: each in
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
import os
from typing import Any

import numpy as np

import _rnn_candidates as shared  # beside this file: found when run as a script or loaded by path

SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2
HERE = os.path.abspath(__file__)


# -- builders: each runs in the worker process that times it --------------------------------------
def _inputs(seq: int, batch: int) -> tuple[Any, np.ndarray]:
    return shared.inputs("LSTM", seq, batch, FEATURES, HIDDEN, LAYERS)


def torch_lstm(seq: int, batch: int, mode: str) -> Any:
    return shared.torch_candidate(*_inputs(seq, batch), mode)


def flax_lstm(seq: int, batch: int, mode: str) -> Any:
    """``flax.linen.RNN(OptimizedLSTMCell)`` stacked LAYERS deep (its own weights), jitted."""
    import flax.linen as nn

    return shared.flax_candidate(lambda: nn.OptimizedLSTMCell(HIDDEN), _inputs(seq, batch)[1], LAYERS, mode)


def levelbench_lstm(seq: int, batch: int, mode: str) -> Any:
    """levelbench.nn.LSTM with torch's weights."""
    from levelbench.nn import from_torch

    module, x = _inputs(seq, batch)
    params, lstm = from_torch(module)
    return shared.levelbench_candidate(lstm.apply, params, x, mode)


# -- timing ----------------------------------------------------------------------------------------
def frameworks(seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks(HERE, "lstm", seq, batch, mode, budget)


def flops(seq: int, batch: int, mode: str) -> float:
    """GEMM FLOPs: per layer and step, input and recurrent projections to 4 gates."""
    per_step = sum(2 * batch * ((FEATURES if layer == 0 else HIDDEN) + HIDDEN) * 4 * HIDDEN for layer in range(LAYERS))
    return seq * per_step * (3 if mode == "train" else 1)


def compile_seconds(seq: int, batch: int, repeats: int = 3) -> dict[str, float]:
    """Median seconds to lower and compile levelbench's and Flax's jitted functions."""
    return shared.compile_seconds([("levelbench forward", levelbench_lstm, "forward"),
                                   ("levelbench forward+backward", levelbench_lstm, "train"),
                                   ("flax.linen.RNN forward", flax_lstm, "forward"),
                                   ("flax.linen.RNN forward+backward", flax_lstm, "train")], seq, batch, repeats)


def main() -> None:
    from levelbench._measuring.peak import machine_peak

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="a shorter budget, batch 8 only")
    parser.add_argument("--budget", type=float, default=None, help="seconds of interleaved timing per comparison")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    parser.add_argument("--seq", type=int, default=SEQ, help=f"sequence length (default {SEQ}, the seed's)")
    args = parser.parse_args()
    print(shared.environment())
    batches = args.batch or ([8] if args.quick else [8, 64])
    budget = args.budget or (10.0 if args.quick else 30.0)
    peak = machine_peak().float32_flops
    for batch in batches:
        for mode in ("forward", "train"):
            c = frameworks(args.seq, batch, mode, budget)
            shared.print_comparison(c, ["torch.nn.LSTM", "flax.linen.RNN"])
            for name, m in c.measurements.items():
                rate = flops(args.seq, batch, mode) / m.median
                print(f"  {name:26} {rate / 1e9:6.1f} GFLOP/s" + (f", {rate / peak:.0%} of peak" if peak else ""))

    print("\ncompile time (lower + compile, median of 3, seconds), batch 8")
    by_seq = {seq: compile_seconds(seq, 8) for seq in (25, args.seq)}
    print(f"  {'function':34} {'seq 25':>8} {'seq ' + str(args.seq):>9} {'ratio':>8}")
    for name in by_seq[25]:
        a, b = by_seq[25][name], by_seq[args.seq][name]
        print(f"  {name:34} {a:8.2f} {b:9.2f} {b / a:8.2f}")
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
