"""Both recurrent layers in one report: levelbench.nn.GRU and levelbench.nn.LSTM against torch.nn and
flax.linen.RNN, forward and forward+backward, at the seed sizes (batch 8) and batch 64, with the share
of the machine's peak each reaches and issue 28's targets.

Each comparison is benchmarks/gru.py's or benchmarks/lstm.py's: every candidate in a worker process
of its own, blocks of samples interleaved round-robin, ratios paired over rounds with bootstrap 95%
CIs. % of peak counts the GEMM FLOPs (forward+backward: 3x the forward's) against two peaks:

- practical: what the installed BLAS's float32 GEMM reaches here (levelbench's measured and cached
  peak); with ``--isa avx2``, OpenBLAS's Haswell (AVX2) kernels' (``OPENBLAS_CORETYPE=Haswell``);
- theoretical: cores x FMA units x float32 lanes x 2 x the clock /proc/cpuinfo reports (levelbench's
  `theoretical_peak`), for the ISA the kernel runs: AVX2's 8 lanes, or the CPU's datapath if
  narrower. A CPU that boosts above its reported clock can run above 100% of it.

Issue 28's targets are shares of the practical peak: LSTM forward >= 80% and forward+backward >= 65%
at batch 8 and 64; GRU forward+backward at batch 64 >= 80%. Each is met when the CI of the share
(from the median time's CI) is above the target, not met when it is below, else undecided. Other
jobs on the machine slow levelbench down without widening that CI: where the load average at the
start was half the CPU count or more, "not met" is reported as undecided (loaded).
The kernel's ISA and tiles are what the loaded library reports (`levelbench.nn.build().kernel`).

First touch: the header gives the rate at which this machine writes into pages a process touches for
the first time, and into pages already touched (NumPy, 64 MB, best of 5; `_rnn_candidates.first_touch`),
and each levelbench row the memory one call writes that XLA allocates for it (its temporaries and
outputs, ``compiled.memory_analysis()``): XLA:CPU hands large buffers back to the OS after each call,
so each call pays for their first touch again. That memory at the fresh rate is a floor under the
row's time that no kernel change short of keeping less can lower (where XLA reuses a smaller buffer
instead, less): 2.8 GB/s (1.4 us per 4 KB) on the Firecracker guests, ~1 GB/s (4 us) on the gVisor
Zen 3 (docs/notes/2026-12-03-rnn-peak-accounting.md, "First touch, and the LSTM keeps less").
It is printed beside the % of peak, which stays the raw share of the whole call's time.

    python benchmarks/rnn.py                 # GRU and LSTM, batch 8 and 64, ~12 minutes
    python benchmarks/rnn.py --quick         # batch 8 only, a shorter budget
    python benchmarks/rnn.py --model lstm    # one of the two
    python benchmarks/rnn.py --isa avx2      # the kernels built for AVX2 (on an AVX-512 machine)
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import subprocess
import sys
import tempfile
from typing import Any

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import _rnn_candidates as shared  # noqa: E402  (beside this file)

TORCH = {"gru": "torch.nn.GRU", "lstm": "torch.nn.LSTM"}
FLAX = "flax.linen.RNN"
# issue 28's targets: (model, mode, batch) -> the least share of the practical peak levelbench must reach
TARGETS = {
    ("lstm", "forward", 8): 0.80,
    ("lstm", "forward", 64): 0.80,
    ("lstm", "train", 8): 0.65,
    ("lstm", "train", 64): 0.65,
    ("gru", "train", 64): 0.80,
}
AVX2_LANES = 8  # float32 lanes of a 256-bit vector


@dataclasses.dataclass(frozen=True)
class Peaks:
    """float32 FLOP/s: the practical peak, the theoretical one, and how each was had."""

    practical: float
    theoretical: float
    practical_source: str
    theoretical_source: str


def peaks(isa: str) -> Peaks:
    """The practical and theoretical float32 peaks for kernels built for ``isa`` ("native", "avx2")."""
    from levelbench._measuring.environment import theoretical_peak
    from levelbench._measuring.peak import machine_peak

    cpu = theoretical_peak()
    clock = f"{cpu.clock_mhz:,.0f} MHz" if cpu.clock_mhz else "unknown clock"
    if isa == "native":
        return Peaks(machine_peak().float32_flops, cpu.flops["float32"],
                     "NumPy's BLAS, measured (levelbench's cached peak)",
                     f"{cpu.cores} cores x {cpu.fma_units} FMA x {cpu.vector_bits // 32} lanes x 2 at {clock} ({cpu.isa})")
    # AVX2 code uses 8 float32 lanes, or the datapath's lanes where those are fewer (AMD Zen 4 runs
    # AVX-512 on 256-bit datapaths: the same peak for both ISAs there).
    lanes = min(AVX2_LANES, cpu.vector_bits // 32)
    theoretical = cpu.flops["float32"] * lanes / (cpu.vector_bits // 32)
    return Peaks(avx2_practical_peak(), theoretical,
                 "NumPy's OpenBLAS with its Haswell (AVX2) kernels, measured (OPENBLAS_CORETYPE=Haswell)",
                 f"{cpu.cores} cores x {cpu.fma_units} FMA x {lanes} AVX2 lanes x 2 at {clock} "
                 f"(datapath {cpu.vector_bits} bits: {cpu.isa})")


def avx2_practical_peak() -> float:
    """levelbench's practical peak measured with OpenBLAS held to its AVX2 kernels (a process of its own;
    the cache keys it apart from the native one by the OPENBLAS_ variable)."""
    env = dict(os.environ, OPENBLAS_CORETYPE="Haswell")
    code = "from levelbench._measuring.peak import machine_peak; print(machine_peak().float32_flops)"
    # stderr passes through: a peak that did not settle (a busy machine) says so there
    done = subprocess.run([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True, env=env, check=False)
    if done.returncode != 0:
        raise SystemExit(f"measuring the AVX2 practical peak failed (exit {done.returncode}); its error is above")
    return float(done.stdout.strip().splitlines()[-1])


def compare(model: str, seq: int, batch: int, mode: str, budget: float) -> Any:
    return shared.frameworks(model, seq, batch, mode, budget)


def share(flops: float, time: Any, peak: float) -> tuple[float, float, float]:
    """(estimate, lower, upper) share of ``peak`` for ``flops`` in ``time`` (an Interval of seconds)."""
    return flops / time.estimate / peak, flops / time.upper / peak, flops / time.lower / peak


def verdict(low: float, high: float, target: float, load: float) -> str:
    """Whether the share's CI (low, high) is above ``target``; ``load``: the load average per CPU at the
    start, above which a share below the target may be the other jobs' doing."""
    if low >= target:
        return "met"
    if high >= target:
        return "undecided (CI spans it)"
    return f"undecided (loaded: load average {load:.1f} per CPU)" if load >= 0.5 else "not met"


def first_touch_cell(nbytes: int, touch: shared.FirstTouch, seconds: float) -> str:
    """``nbytes`` of fresh memory, the floor it puts under a call at the fresh rate, and that floor's
    share of a call of ``seconds``."""
    floor = touch.floor(nbytes)
    return (f"first touch: {nbytes / 1e6:.0f} MB, >= {floor:.3f} s at {touch.fresh / 1e9:.2f} GB/s, "
            f"{floor / seconds:.0%} of the row")


def report(model: str, c: Any, seq: int, batch: int, mode: str, p: Peaks, touch: shared.FirstTouch,
           fresh_bytes: int) -> dict[str, Any] | None:
    """Print the comparison and each candidate's shares of the peaks, and levelbench's first-touch
    floor (``fresh_bytes`` per call at ``touch``'s fresh rate); return levelbench's row."""
    shared.print_comparison(c, [TORCH[model], FLAX])
    flops = shared.gemm_flops(model, seq, batch, mode)
    for name, m in c.measurements.items():
        mid, low, high = share(flops, m.ci, p.practical)
        print(f"  {name:26} {flops / m.median / 1e9:6.1f} GFLOP/s, {mid:.0%} of the practical peak "
              f"({low:.0%}-{high:.0%}), {flops / m.median / p.theoretical:.0%} of the theoretical")
    if "levelbench" not in c.measurements:
        return None
    m = c.measurements["levelbench"]
    print(f"  {'levelbench':26} {first_touch_cell(fresh_bytes, touch, m.median)}")
    row = {"model": model, "mode": mode, "batch": batch, "time": m.ci, "fresh_bytes": fresh_bytes,
           "practical": share(flops, m.ci, p.practical), "theoretical": flops / m.median / p.theoretical}
    for ref in (TORCH[model], FLAX):
        row[ref] = c.ratio("levelbench", ref) if ref in c.measurements else None
    return row


def print_summary(rows: list[dict[str, Any]], seq: int, load: float, touch: shared.FirstTouch) -> None:
    print(f"\nlevelbench.nn, seq {seq}: median time (95% CI), % of the practical peak (CI), % of the "
          "theoretical, ratios to torch and Flax (95% CI), issue 28's target")
    print(f"  {'row':26} {'time (ms)':>22} {'practical':>16} {'theor.':>7} {'/ torch':>22} {'/ Flax':>22}  target")
    for r in rows:
        t, (mid, low, high) = r["time"], r["practical"]
        ratios = ""
        for ref in (TORCH[r["model"]], FLAX):
            x = r[ref]
            ratios += f" {x.estimate:6.3f}x ({x.lower:.3f}-{x.upper:.3f})" if x else f" {'-':>22}"
        target = TARGETS.get((r["model"], r["mode"], r["batch"]))
        goal = f">= {target:.0%}: {verdict(low, high, target, load)}" if target else "-"
        name = f"{r['model'].upper()} {shared.label(r['mode'])} b{r['batch']}"
        print(f"  {name:26} {t.estimate * 1e3:7.1f} ({t.lower * 1e3:6.1f}-{t.upper * 1e3:6.1f}) "
              f"{mid:5.0%} ({low:.0%}-{high:.0%}) {r['theoretical']:6.0%}{ratios}  {goal}")
        print(f"  {'':26} {first_touch_cell(r['fresh_bytes'], touch, t.estimate)} (XLA's temporaries and "
              "outputs, written into fresh pages every call; not subtracted above)")
    if seq != shared.SEQ:
        print(f"  (the targets are for seq {shared.SEQ}; this ran {seq})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("--model", choices=("gru", "lstm"), nargs="*", default=None, help="default: both")
    parser.add_argument("--mode", choices=("forward", "train"), nargs="*", default=None, help="default: both")
    parser.add_argument("--quick", action="store_true", help="batch 8 only and 10 s per comparison")
    parser.add_argument("--budget", type=float, default=None,
                        help="seconds of interleaved timing per comparison (default 30; 10 with --quick)")
    parser.add_argument("--batch", type=int, nargs="*", default=None, help="batch sizes (default 8 64)")
    parser.add_argument("--seq", type=int, default=shared.SEQ, help=f"sequence length (default {shared.SEQ}, the seed's)")
    parser.add_argument("--isa", choices=("native", "avx2"), default="native",
                        help="the kernels built for this machine (default), or for AVX2 on an AVX-512 machine")
    args = parser.parse_args()
    if args.isa == "avx2":  # the workers inherit the environment, and build (or load) that kernel
        os.environ.update(shared.avx2_build(os.path.join(tempfile.gettempdir(), f"levelbench-avx2-{os.getuid()}")))
    print(shared.environment())
    load = os.getloadavg()[0] / (os.cpu_count() or 1)  # before this run adds its own
    from levelbench.nn import build

    kernel = build()  # here first, so that no worker times a build
    print(f"levelbench.nn kernel: {json.dumps(dict(kernel.kernel)) if kernel.available else kernel.detail}")
    if args.isa == "avx2" and dict(kernel.kernel).get("isa") != "AVX2+FMA":
        raise SystemExit(f"--isa avx2: expected a kernel built for AVX2+FMA, got {dict(kernel.kernel) or kernel.detail}")
    p = peaks(args.isa)
    print(f"float32 peaks: practical {p.practical / 1e9:.1f} GFLOP/s ({p.practical_source}); "
          f"theoretical {p.theoretical / 1e9:.1f} GFLOP/s ({p.theoretical_source})")
    touch = shared.first_touch()
    print(touch.describe())
    batches = args.batch or ([8] if args.quick else [8, 64])
    budget = args.budget or (10.0 if args.quick else 30.0)
    rows = []
    for model in args.model or ("gru", "lstm"):
        for batch in batches:
            for mode in args.mode or ("forward", "train"):
                fresh = shared.call_memory(model, args.seq, batch, mode)
                row = report(model, compare(model, args.seq, batch, mode, budget), args.seq, batch, mode, p, touch,
                             fresh)
                rows += [row] if row else []
    print_summary(rows, args.seq, load, touch)
    print(f"\n{shared.environment()}")


if __name__ == "__main__":
    main()
