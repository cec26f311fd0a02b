"""Where one call of levelbench.nn's GRU or LSTM spends its time: the kernels' phase timers, and
what lies outside the kernels' loops.

A worker process builds the kernels with ``-DLEVELBENCH_RNN_TIMERS`` (a ``$CXX`` wrapper appends
it, in a kernel cache of its own) and runs the seed's sizes on one kernel thread. Per timed call it
prints the wall time, the process's CPU time (user and system) and minor page faults
(``getrusage``), and from the timers' lines: every loop's ticks per step (medians over the steps
that were not preempted, phase by phase), the loops' whole time (every step), and what is left of
the call outside the loops. Ticks are the time-stamp counter's: the worker measures its rate, the
counter read through the kernels' own library (``levelbench_rnn_ticks``, the rdtsc the timers read)
over ``perf_counter`` intervals of 0.3 s before and after the timed calls, and the figures use the
mean of the two; ``--tsc-ghz`` overrides it (a guest's counter need not run at its nominal clock:
2.0 GHz on the Sapphire Rapids guests, 2.1 on the Emerald Rapids one).

The header also gives the machine's first-touch rate (writing into fresh pages and into touched
ones, `_rnn_candidates.first_touch`) and the memory a call writes that XLA allocates for it (its
temporaries and outputs, ``compiled.memory_analysis()``, handed back to the OS after each call),
with the floor that puts under the call at the fresh rate: a sandbox's slow first touch (gVisor:
~4 us per 4 KB) shows up in whichever phase touches a page first
(docs/notes/2026-12-03-rnn-peak-accounting.md, "First touch, and the LSTM keeps less").

    python benchmarks/rnn_phases.py --model lstm --mode train --batch 64
    python benchmarks/rnn_phases.py --model gru --mode forward --batch 8 --isa avx2 --pin 1
    python benchmarks/rnn_phases.py --checkout ../base --tsc-ghz 2.1   # another checkout's kernels
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _rnn_candidates as shared  # noqa: E402  (beside this file)

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Runs in the worker, levelbench imported from this checkout; the timers print to stderr at the end
# of every kernel call, so the call's own figures go there too, in order.
WORKER = """
import ctypes, resource, sys, time
import jax, jax.numpy as jnp, numpy as np
from levelbench.nn import GRU, LSTM, _rnn_native
model, mode, batch, seq, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
# A checkout older than the counter's entry point (--checkout) has its rate from --tsc-ghz only.
ticks = getattr(ctypes.CDLL(_rnn_native.status().library), "levelbench_rnn_ticks", lambda: 0)
ticks.restype = ctypes.c_uint64

def tick_rate(seconds=0.3):
    # Ticks per second over a perf_counter interval, each end's counter read between two clock reads
    # (their midpoint is its time), sleeping in between: the counter runs on while the thread sleeps.
    def pair():
        before = time.perf_counter()
        count = ticks()
        return (before + time.perf_counter()) / 2, count
    t0, k0 = pair()
    time.sleep(seconds)
    t1, k1 = pair()
    return (k1 - k0) / (t1 - t0)

print(f"tsc {{tick_rate()}}", file=sys.stderr, flush=True)
layer = (GRU if model == "gru" else LSTM)(input_size={features}, hidden_size={hidden}, num_layers={layers})
params = layer.init(jax.random.key(0))
x = jnp.asarray(np.random.default_rng(0).standard_normal((seq, batch, {features}), dtype=np.float32))
if mode == "forward":
    fn = jax.jit(lambda p, x: layer.apply(p, x)[0])
else:
    fn = jax.jit(jax.value_and_grad(lambda p, x: (layer.apply(p, x)[0] ** 2).mean()))
memory = fn.lower(params, x).compile().memory_analysis()
print(f"memory {{memory.temp_size_in_bytes}} {{memory.output_size_in_bytes}}", file=sys.stderr, flush=True)
for _ in range(2):
    jax.block_until_ready(fn(params, x))
print("timed calls from here", file=sys.stderr, flush=True)
for _ in range(calls):
    before, wall, cpu = resource.getrusage(resource.RUSAGE_SELF), time.perf_counter(), time.process_time()
    jax.block_until_ready(fn(params, x))
    wall, cpu, after = time.perf_counter() - wall, time.process_time() - cpu, resource.getrusage(resource.RUSAGE_SELF)
    print(f"call {{wall}} {{cpu}} {{after.ru_utime - before.ru_utime}} {{after.ru_stime - before.ru_stime}} "
          f"{{after.ru_minflt - before.ru_minflt}}", file=sys.stderr, flush=True)
print(f"tsc {{tick_rate()}}", file=sys.stderr, flush=True)
""".format(features=shared.FEATURES, hidden=shared.HIDDEN, layers=shared.LAYERS)

TIMERS = re.compile(r"levelbench timers: (\w+) thread (\d+), (\d+) steps, (\d+) ticks per step, (.*), "
                    r"all steps (\d+) ticks")


def timers_build(folder: str, isa: str) -> dict[str, str]:
    """The environment of a worker whose kernels are built with the phase timers (and for AVX2 with
    ``isa`` "avx2"), in a kernel cache of their own under ``folder``."""
    env = shared.avx2_build(folder) if isa == "avx2" else {}
    compiler = env.get("CXX") or os.environ.get("CXX") or "g++"
    os.makedirs(folder, exist_ok=True)
    wrapper = os.path.join(folder, "cxx-timers")
    text = f'#!/bin/sh\nexec "{compiler}" "$@" -DLEVELBENCH_RNN_TIMERS\n'
    if not os.path.exists(wrapper) or open(wrapper).read() != text:
        with open(wrapper, "w") as f:
            f.write(text)
        os.chmod(wrapper, 0o755)
    return {"CXX": wrapper, "LEVELBENCH_KERNEL_DIR": os.path.join(folder, "kernels-timers")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--model", choices=["gru", "lstm"], default="lstm")
    parser.add_argument("--mode", choices=["forward", "train"], default="train")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seq", type=int, default=shared.SEQ)
    parser.add_argument("--calls", type=int, default=3, help="timed calls, after two warm-ups")
    parser.add_argument("--isa", choices=["native", "avx2"], default="native")
    parser.add_argument("--pin", type=int, default=None, help="run the worker on this CPU only (taskset)")
    parser.add_argument("--checkout", default=ROOT,
                        help="the levelbench checkout whose kernels run (its repository root; default: this one)")
    parser.add_argument("--tsc-ghz", type=float, default=None,
                        help="the time-stamp counter's rate in GHz (default: measured by the worker)")
    args = parser.parse_args()
    touch = shared.first_touch()  # before the worker, so that neither slows the other
    folder = os.path.join(tempfile.gettempdir(), f"levelbench-rnn-phases-{args.isa}")
    env = shared.checkout_environment(args.checkout, LEVELBENCH_NATIVE_THREADS="1", **timers_build(folder, args.isa))
    command = [sys.executable, "-c", WORKER, args.model, args.mode, str(args.batch), str(args.seq), str(args.calls)]
    if args.pin is not None:
        command = ["taskset", "-c", str(args.pin), *command]
    done = subprocess.run(command, capture_output=True, text=True, env=env, cwd=args.checkout,
                          check=False)
    if done.returncode != 0 or "timed calls from here" not in done.stderr:
        raise SystemExit(f"the timers' worker was expected to run {args.calls} calls and exited {done.returncode} "
                         f"instead; its kernel cache is {env['LEVELBENCH_KERNEL_DIR']} (delete it if a build there "
                         f"is broken). The end of its stderr:\n{done.stderr[-2000:]}")
    load = os.getloadavg()[0]
    rates = [float(line.split()[1]) / 1e9 for line in done.stderr.splitlines() if line.startswith("tsc ")]
    if args.tsc_ghz is not None:
        measured = ", ".join(f"{r:.4f}" for r in rates if r > 0)
        ghz = args.tsc_ghz
        source = f"--tsc-ghz {ghz} " + (f"(measured: {measured} GHz)" if measured
                                        else "(not measured by that checkout's kernels)")
    elif len(rates) == 2 and min(rates) > 0:
        ghz = sum(rates) / 2
        source = f"{ghz:.4f} GHz, measured before and after the calls ({rates[0]:.4f}, {rates[1]:.4f})"
    else:
        raise SystemExit(f"the worker was expected to measure the time-stamp counter's rate twice, got {rates} GHz "
                         f"(no counter on this CPU?); pass it with --tsc-ghz")
    print(f"# {args.checkout}: {args.model} {args.mode}, batch {args.batch}, seq {args.seq}, {args.isa} build, "
          f"1 kernel thread, "
          f"load average {load:.2f}; ticks at {source}")
    memory = [line.split()[1:] for line in done.stderr.splitlines() if line.startswith("memory ")]
    fresh = sum(int(v) for v in memory[0]) if memory else 0
    print(f"# {touch.describe()}; a call writes {fresh / 1e6:.1f} MB XLA allocates for it (temporaries and outputs, "
          f"fresh pages every call): >= {touch.floor(fresh):.3f} s at the fresh rate")
    loops: list[tuple[str, int, int, str]] = []
    for line in done.stderr.split("timed calls from here", 1)[1].splitlines():
        if (m := TIMERS.search(line)) is not None:
            loops.append((m.group(1), int(m.group(4)), int(m.group(6)), m.group(5)))
        elif line.startswith("call "):
            wall, cpu, user, system, faults = (float(v) for v in line.split()[1:])
            whole = sum(ticks for _, _, ticks, _ in loops) / (ghz * 1e9)
            medians = sum(per_step for _, per_step, _, _ in loops) * args.seq / (ghz * 1e9)
            for name, per_step, ticks, phases in loops:
                print(f"  {name:8} {per_step:>9,} ticks per step (medians), {ticks / (ghz * 1e9):.3f} s "
                      f"all steps: {phases}")
            print(f"call: wall {wall:.3f} s, CPU {cpu:.3f} s (user {user:.3f}, system {system:.3f}), "
                  f"{faults:.0f} minor faults; loops {whole:.3f} s (step medians {medians:.3f} s), "
                  f"outside the loops {wall - whole:.3f} s of the wall time; first-touch floor "
                  f"{touch.floor(fresh):.3f} s ({touch.floor(fresh) / wall:.0%} of the wall)")
            loops = []


if __name__ == "__main__":
    main()
