"""Both recurrent layers in one report: levelbench.nn.GRU and levelbench.nn.LSTM against torch.nn and
flax.linen.RNN, forward and forward+backward, at the seed sizes (batch 8) and batch 64.

Each comparison is benchmarks/gru.py's or benchmarks/lstm.py's: every candidate in a worker process
of its own, blocks of samples interleaved round-robin, ratios paired over rounds with bootstrap 95%
CIs. Beside each ratio to torch, issue 20's target for it, and whether the CI is inside it; % of
peak counts the GEMM FLOPs (forward+backward: 3x the forward's) against the machine's float32 peak
as levelbench measures it.

    python benchmarks/rnn.py                 # GRU and LSTM, batch 8 and 64, ~12 minutes
    python benchmarks/rnn.py --quick         # batch 8 only, a shorter budget
    python benchmarks/rnn.py --model lstm    # one of the two
"""

from __future__ import annotations

import argparse
import os
import sys
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import _rnn_candidates as shared  # noqa: E402  (beside this file)
import gru  # noqa: E402
import lstm  # noqa: E402

TORCH = {"gru": "torch.nn.GRU", "lstm": "torch.nn.LSTM"}
FLAX = "flax.linen.RNN"
# issue 20's targets: (model, mode, batch) -> the most levelbench may take, as a multiple of the reference's time
TARGETS = {
    ("gru", "train", 8): {TORCH["gru"]: 0.22},
    ("gru", "train", 64): {TORCH["gru"]: 0.35},
    ("lstm", "forward", 8): {TORCH["lstm"]: 0.35, FLAX: 0.6},
    ("lstm", "train", 8): {TORCH["lstm"]: 0.35, FLAX: 0.5},
}


def gemm_flops(model: str, seq: int, batch: int, mode: str) -> float:
    """Per layer and step, the input and recurrent projections to the gates (GRU 3, LSTM 4)."""
    gates = 3 if model == "gru" else 4
    h, f = gru.HIDDEN, gru.FEATURES
    per_step = sum(2 * batch * ((f if layer == 0 else h) + h) * gates * h for layer in range(gru.LAYERS))
    return seq * per_step * (3 if mode == "train" else 1)


def compare(model: str, seq: int, batch: int, mode: str, budget: float) -> Any:
    return (gru if model == "gru" else lstm).frameworks(seq, batch, mode, budget)


def report(model: str, c: Any, seq: int, batch: int, mode: str, peak: float | None) -> list[str]:
    """Print the comparison; return one summary line per target."""
    shared.print_comparison(c, [TORCH[model], FLAX])
    for name, m in c.measurements.items():
        rate = gemm_flops(model, seq, batch, mode) / m.median
        print(f"  {name:26} {rate / 1e9:6.1f} GFLOP/s" + (f", {rate / peak:.0%} of float32 peak" if peak else ""))
    lines = []
    for ref, most in TARGETS.get((model, mode, batch), {}).items():
        if "levelbench" not in c.measurements or ref not in c.measurements:
            lines.append(f"{model} {shared.label(mode)} batch {batch} / {ref}: not measured")
            continue
        r = c.ratio("levelbench", ref)
        verdict = "met" if r.upper <= most else "not met" if r.lower > most else "undecided (CI spans it)"
        # the rate the target asks for: the reference's time times the target, for the same FLOPs
        needed = gemm_flops(model, seq, batch, mode) / (c.measurements[ref].median * most)
        lines.append(f"{model} {shared.label(mode)} batch {batch}: {r.estimate:.3f}x {ref} "
                     f"({r.lower:.3f}-{r.upper:.3f}), target <= {most}x: {verdict}"
                     + (f"; the target asks for {needed / peak:.0%} of float32 peak" if peak else ""))
    return lines


def main() -> None:
    from levelbench._measuring.peak import machine_peak

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="batch 8 only, a shorter budget")
    parser.add_argument("--model", choices=("gru", "lstm"), nargs="*", default=None, help="default: both")
    parser.add_argument("--budget", type=float, default=None, help="seconds of interleaved timing per comparison")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    parser.add_argument("--seq", type=int, default=gru.SEQ, help=f"sequence length (default {gru.SEQ}, the seed's)")
    args = parser.parse_args()
    print(shared.environment())
    batches = args.batch or ([8] if args.quick else [8, 64])
    budget = args.budget or (10.0 if args.quick else 30.0)
    peak = machine_peak().float32_flops
    summary = []
    for model in args.model or ("gru", "lstm"):
        for batch in batches:
            for mode in ("forward", "train"):
                c = compare(model, args.seq, batch, mode, budget)
                summary += report(model, c, args.seq, batch, mode, peak)
    print("\nissue 20's targets" + ("" if args.seq == gru.SEQ else f" (they are for seq {gru.SEQ}; this ran {args.seq})"))
    for line in summary:
        print("  " + line)
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
