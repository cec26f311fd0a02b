"""levelbench.nn's GRU and LSTM from two checkouts of levelbench, side by side: did a change to the
native kernels make a row faster or slower?

Every sample is a fresh process that imports levelbench from one checkout (its own kernel cache),
builds the layer at the seed sizes, warms up, and times ``--calls`` calls. The two checkouts
alternate process by process for ``--rounds`` rounds, so that a busy spell of a shared machine
hits both; each round gives the ratio after / before of the two processes' median call times,
and the report gives the median ratio with a bootstrap 95% CI over rounds, and each side's
median and best time. benchmarks/rnn.py compares against torch and Flax; this compares code.

On a machine other jobs load, ``--threads 1 --clock cpu`` times each call by the process's CPU time on
one kernel thread: time the kernel spent descheduled is not counted (two threads would count the
spinning of the one that waits at every step for the other), though what others do to the caches is.

    python benchmarks/rnn_checkouts.py BEFORE_DIR AFTER_DIR                 # GRU and LSTM, both modes, batch 8 and 64
    python benchmarks/rnn_checkouts.py BEFORE_DIR AFTER_DIR --model lstm --mode forward --batch 8
    python benchmarks/rnn_checkouts.py BEFORE_DIR AFTER_DIR --isa avx2   # both built for AVX2 (AVX-512 machine)
"""

from __future__ import annotations

import argparse
import json
import os
import hashlib
import subprocess
import sys
import tempfile

import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import _rnn_candidates as shared  # noqa: E402  (beside this file)

SEQ, FEATURES, HIDDEN, LAYERS = 1000, 6, 200, 2

# Runs in the worker process, with levelbench imported from the checkout on its path.
WORKER = """
import json, sys, time
import jax, jax.numpy as jnp, numpy as np
from levelbench.nn import GRU, LSTM
model, mode, batch, seq, calls = sys.argv[1], sys.argv[2], int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
clock = time.process_time if sys.argv[6] == "cpu" else time.perf_counter
layer = (GRU if model == "gru" else LSTM)(input_size={features}, hidden_size={hidden}, num_layers={layers})
params = layer.init(jax.random.key(0))
x = jnp.asarray(np.random.default_rng(0).standard_normal((seq, batch, {features}), dtype=np.float32))
if mode == "forward":
    fn = jax.jit(lambda p, x: layer.apply(p, x)[0])
else:
    fn = jax.jit(jax.value_and_grad(lambda p, x: (layer.apply(p, x)[0] ** 2).mean()))
for _ in range(2):
    jax.block_until_ready(fn(params, x))
times = []
for _ in range(calls):
    start = clock()
    jax.block_until_ready(fn(params, x))
    times.append(clock() - start)
print(json.dumps(times))
""".format(features=FEATURES, hidden=HIDDEN, layers=LAYERS)


def sample(checkout: str, model: str, mode: str, batch: int, seq: int, calls: int, isa: str, clock: str,
           threads: int) -> list[float]:
    """One worker process's call times by ``clock`` ("wall", "cpu"), levelbench imported from ``checkout``,
    its kernel built for ``isa`` ("native", "avx2") in a cache of the checkout's own and run on ``threads``
    threads (0: the kernel's default)."""
    cache = hashlib.sha256(os.path.abspath(checkout).encode()).hexdigest()[:12]
    folder = os.path.join(tempfile.gettempdir(), f"levelbench-rnn-checkouts-{cache}")
    env = shared.checkout_environment(checkout, LEVELBENCH_KERNEL_DIR=folder)
    if isa == "avx2":
        env.update(shared.avx2_build(folder + "-avx2"))
    if threads:
        env["LEVELBENCH_NATIVE_THREADS"] = str(threads)
    done = subprocess.run([sys.executable, "-c", WORKER, model, mode, str(batch), str(seq), str(calls), clock],
                          capture_output=True, text=True, env=env, cwd=checkout, check=False)
    if done.returncode != 0:
        raise SystemExit(f"the worker for {checkout} failed (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])


def bootstrap_ci(ratios: np.ndarray, draws: int = 10_000) -> tuple[float, float]:
    rng = np.random.default_rng(0)
    medians = np.median(rng.choice(ratios, size=(draws, len(ratios))), axis=1)
    return float(np.percentile(medians, 2.5)), float(np.percentile(medians, 97.5))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0].replace("\n", " "))
    parser.add_argument("before", help="the checkout to compare against (its repository root)")
    parser.add_argument("after", help="the checkout with the change")
    parser.add_argument("--model", choices=("gru", "lstm"), nargs="*", default=["gru", "lstm"])
    parser.add_argument("--mode", choices=("forward", "train"), nargs="*", default=["forward", "train"])
    parser.add_argument("--batch", type=int, nargs="*", default=[8, 64])
    parser.add_argument("--seq", type=int, default=SEQ, help=f"sequence length (default {SEQ}, the seed's)")
    parser.add_argument("--rounds", type=int, default=5, help="before/after process pairs per row")
    parser.add_argument("--calls", type=int, default=5, help="timed calls per process")
    parser.add_argument("--isa", choices=("native", "avx2"), default="native",
                        help="the kernels built for this machine (default), or for AVX2 on an AVX-512 machine")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time calls by the wall clock (default) or by the process's CPU time (with --threads 1)")
    parser.add_argument("--threads", type=int, default=0, help="kernel threads (default: the kernel's own choice)")
    args = parser.parse_args()
    print(f"# load average {os.getloadavg()[0]:.2f} at the start; {args.rounds} rounds of "
          f"{args.calls} calls per process; kernels built for {args.isa}, {args.threads or 'default'} threads, "
          f"{args.clock} clock; ratio = after / before, per round's medians")
    print(f"{'model':5} {'mode':8} {'batch':>5} {'before median (best)':>22} {'after median (best)':>22} "
          f"{'after/before (95% CI)':>24}")
    for model in args.model:
        for mode in args.mode:
            for batch in args.batch:
                before, after, ratios = [], [], []
                for round_ in range(args.rounds):
                    pair = {}
                    # alternate which side goes first, so neither always follows the other
                    for side in (("before", "after") if round_ % 2 == 0 else ("after", "before")):
                        pair[side] = sample(getattr(args, side), model, mode, batch, args.seq, args.calls, args.isa, args.clock,
                                            args.threads)
                    before += pair["before"]
                    after += pair["after"]
                    ratios.append(np.median(pair["after"]) / np.median(pair["before"]))
                low, high = bootstrap_ci(np.array(ratios))
                print(f"{model:5} {mode:8} {batch:5} "
                      f"{np.median(before) * 1e3:11.1f} ms ({min(before) * 1e3:6.1f}) "
                      f"{np.median(after) * 1e3:11.1f} ms ({min(after) * 1e3:6.1f}) "
                      f"{np.median(ratios):9.3f}x ({low:.3f}-{high:.3f})", flush=True)
    print(f"# load average {os.getloadavg()[0]:.2f} at the end")


if __name__ == "__main__":
    main()
