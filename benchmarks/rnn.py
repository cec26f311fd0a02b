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

TORCH = {"gru": "torch.nn.GRU", "lstm": "torch.nn.LSTM"}
FLAX = "flax.linen.RNN"
# issue 20's targets: (model, mode, batch) -> the most levelbench may take, as a multiple of the reference's time
TARGETS = {
    ("gru", "train", 8): {TORCH["gru"]: 0.22},
    ("gru", "train", 64): {TORCH["gru"]: 0.35},
    ("lstm", "forward", 8): {TORCH["lstm"]: 0.35, FLAX: 0.6},
    ("lstm", "train", 8): {TORCH["lstm"]: 0.35, FLAX: 0.5},
}


def compare(model: str, seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks(model, seq, batch, mode, budget)


def report(model: str, c: Any, seq: int, batch: int, mode: str, peak: float | None) -> list[str]:
    """Print the comparison; return one summary line per target."""
    shared.print_comparison(c, [TORCH[model], FLAX])
    shared.print_rates(model, c, seq, batch, mode, peak)
    lines = []
    for ref, most in TARGETS.get((model, mode, batch), {}).items():
        if "levelbench" not in c.measurements or ref not in c.measurements:
            lines.append(f"{model} {shared.label(mode)} batch {batch} / {ref}: not measured")
            continue
        r = c.ratio("levelbench", ref)
        verdict = "met" if r.upper <= most else "not met" if r.lower > most else "undecided (CI spans it)"
        # the rate the target asks for: the reference's time times the target, for the same FLOPs
        needed = shared.gemm_flops(model, seq, batch, mode) / (c.measurements[ref].median * most)
        lines.append(f"{model} {shared.label(mode)} batch {batch}: {r.estimate:.3f}x {ref} "
                     f"({r.lower:.3f}-{r.upper:.3f}), target <= {most}x: {verdict}"
                     + (f"; the target asks for {needed / peak:.0%} of float32 peak" if peak else ""))
    return lines


def main() -> None:
    from levelbench._measuring.peak import machine_peak

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--model", choices=("gru", "lstm"), nargs="*", default=None, help="default: both")
    args = shared.parse_arguments(parser, "batch 8 only, a shorter budget")
    print(shared.environment())
    peak = machine_peak().float32_flops
    summary = []
    for model in args.model or ("gru", "lstm"):
        for batch in args.batches:
            for mode in ("forward", "train"):
                c = compare(model, args.seq, batch, mode, args.budget)
                summary += report(model, c, args.seq, batch, mode, peak)
    print("\nissue 20's targets" + ("" if args.seq == shared.SEQ else f" (they are for seq {shared.SEQ}; this ran {args.seq})"))
    for line in summary:
        print("  " + line)
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
